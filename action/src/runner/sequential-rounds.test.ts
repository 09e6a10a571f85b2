import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { SuitePlan } from "../config/run-config.ts";
import {
  MAX_FILTER_BYTES,
  escapeRustRegex,
  exactIdFilter,
} from "../config/suites/criterion/exact-id-filter.ts";
import { narrowSuites } from "./sequential-rounds.ts";
import { PLANS } from "../../test/support/fake-runner.ts";

/**
 * The filter as JavaScript sees it, to test what it matches: the same syntax except `\x{…}`
 * (JavaScript's `\u{…}` in u-mode) and the escapes JavaScript's u-mode refuses outside a class.
 */
function asJsRegExp(filter: string): RegExp {
  const js = filter
    .replace(/\\x\{([0-9A-F]+)\}/g, "\\u{$1}")
    .replace(/\\([#&~-])/g, (_, c: string) => (c === "-" ? "\\x2D" : c));
  return new RegExp(js, "u");
}

/** Ids Criterion really writes (action/test/fixtures/README.md), and worse. */
const HOSTILE = [
  "evil|name `tick` <b>x</b> @someone #12",
  "bidi \u202Etxt.exe\u200B zero-width",
  "fib 20",
  "sum_vec/1000",
  "a.b+c*d?e(f)g|h[i]j{k}l^m$n\\o",
  "dash-amp&tilde~hash#",
  "line\nbreak\r\ttab\u0000nul",
  ")|.*|(",
  "^$",
  "\u00e9t\u00e9/\u65e5\u672c/\u{1F600}",
];

describe("escapeRustRegex", () => {
  it("escapes Rust regex's meta characters with a backslash", () => {
    expect(escapeRustRegex("\\.+*?()|[]{}^$#&-~")).toBe(
      "\\\\\\.\\+\\*\\?\\(\\)\\|\\[\\]\\{\\}\\^\\$\\#\\&\\-\\~",
    );
  });

  it("writes whitespace, control and format characters as \\x{…}, never raw", () => {
    expect(escapeRustRegex("a b\nc\u0000\u202E\u200B\u00A0")).toBe(
      "a\\x{20}b\\x{A}c\\x{0}\\x{202E}\\x{200B}\\x{A0}",
    );
  });

  it("leaves letters, digits, '/', '_' and other Unicode alone", () => {
    expect(escapeRustRegex("sum_vec/1000")).toBe("sum_vec/1000");
    expect(escapeRustRegex("\u00e9t\u00e9\u{1F600}<>'\"%")).toBe("\u00e9t\u00e9\u{1F600}<>'\"%");
  });

  it("refuses a lone surrogate (no Rust string can hold one)", () => {
    expect(escapeRustRegex("a\uD800b")).toBeUndefined();
  });
});

describe("exactIdFilter", () => {
  it("is ^(?:…)$ over the escaped ids, sorted and without duplicates", () => {
    expect(exactIdFilter(["normalize", "checksum/fnv1a", "normalize"])).toBe(
      "^(?:checksum/fnv1a|normalize)$",
    );
    expect(exactIdFilter(["fib 20"])).toBe("^(?:fib\\x{20}20)$");
  });

  it("matches exactly the hostile ids: not a prefix, a suffix or a neighbour", () => {
    const filter = exactIdFilter(HOSTILE);
    expect(filter).toBeDefined();
    // One argv string: no NUL, no newline.
    for (const raw of ["\u0000", "\n", "\r", " "]) expect(filter?.includes(raw), raw).toBe(false);
    const re = asJsRegExp(filter ?? "");
    for (const id of HOSTILE) {
      expect(re.test(id), id).toBe(true);
      expect(re.test(`${id}x`), `${id}x`).toBe(false);
      expect(re.test(`x${id}`), `x${id}`).toBe(false);
    }
    for (const other of ["", "evil", "fib 200", "sum_vec/10000", "anything", "line"])
      expect(re.test(other), other).toBe(false);
  });

  it("matches exactly its ids, for any ids (property)", () => {
    // Printable text, any code point (controls, separators, astral), and regex syntax.
    const id = fc.oneof(
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
      fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
      fc.string({ unit: fc.constantFrom(..."\\.+*?()|[]{}^$#&-~ /a"), minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 6 }), id, (ids, probe) => {
        const filter = exactIdFilter(ids);
        expect(filter).toBeDefined();
        const re = asJsRegExp(filter ?? "");
        for (const i of ids) expect(re.test(i)).toBe(true);
        expect(re.test(probe)).toBe(ids.includes(probe));
      }),
    );
  });

  it("gives up (undefined) on no ids, a lone surrogate, or a filter too long for one argument", () => {
    expect(exactIdFilter([])).toBeUndefined();
    expect(exactIdFilter(["ok", "bad\uDC00"])).toBeUndefined();
    const many = Array.from({ length: 100 }, (_, i) => `${"x".repeat(1000)}${i}`);
    expect(many.join("|").length).toBeGreaterThan(MAX_FILTER_BYTES);
    expect(exactIdFilter(many)).toBeUndefined();
    expect(exactIdFilter(many.slice(0, 10))).toBeDefined();
  });
});

const SUITES: readonly SuitePlan[] = [
  {
    kind: "criterion",
    name: "micro",
    timeoutMs: 1000,
    bench: "demo",
    features: [],
    filter: "^(normalize|checksum/)",
    args: [],
  },
  PLANS.cli,
  { kind: "custom", name: "harness", timeoutMs: 1000, command: ["h", "{out}"], output: "s.json" },
  { kind: "criterion", name: "other", timeoutMs: 1000, bench: "other", features: [], args: [] },
];
const SUITE_OF = new Map([
  ["normalize", "micro"],
  ["checksum/fnv1a", "micro"],
  ["help", "cli"],
  ["stats", "cli"],
  ["h/one", "harness"],
  ["h/two", "harness"],
  ["o", "other"],
]);

describe("narrowSuites", () => {
  it("Criterion gets an exact-id filter (replacing its own), hyperfine its open commands, custom runs whole", () => {
    const round = narrowSuites(SUITES, new Set(["normalize", "stats", "h/two", "o"]), SUITE_OF);
    expect(round.skipped).toEqual([]);
    expect(round.unfiltered).toEqual([]);
    expect(round.run).toEqual([
      { ...SUITES[0], filter: "^(?:normalize)$" },
      { ...SUITES[1], commands: [{ name: "stats", command: "demo stats" }] },
      SUITES[2],
      { ...SUITES[3], filter: "^(?:o)$" },
    ]);
  });

  it("skips every suite with no open benchmark, in config order", () => {
    const round = narrowSuites(SUITES, new Set(["checksum/fnv1a", "help"]), SUITE_OF);
    expect(round.run.map((s) => s.name)).toEqual(["micro", "cli"]);
    expect(round.skipped).toEqual(["harness", "other"]);
    expect(narrowSuites(SUITES, new Set(["h/one"]), SUITE_OF).run).toEqual([SUITES[2]]);
  });

  it("ids no suite measured are ignored; none left: nothing runs", () => {
    const round = narrowSuites(SUITES, new Set(["ghost"]), SUITE_OF);
    expect(round.run).toEqual([]);
    expect(round.skipped).toEqual(["micro", "cli", "harness", "other"]);
  });

  it("a Criterion suite whose filter cannot be written runs with its own filter", () => {
    const id = "bad\uD800";
    const round = narrowSuites(SUITES, new Set([id]), new Map([[id, "micro"]]));
    expect(round.run).toEqual([SUITES[0]]);
    expect(round.unfiltered).toEqual(["micro"]);
  });
});
