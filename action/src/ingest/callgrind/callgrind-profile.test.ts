import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../errors.ts";
import {
  callgrindFixture,
  callgrindFixtureText,
} from "../../../test/support/callgrind-fixtures.ts";
import { FIXTURES, inputErrorOf } from "../../../test/support/fixtures.ts";
import type { FunctionCost, InstructionProfile } from "../../schemas/instruction-profile.ts";
import { displayName, functionKey, parseCallgrind } from "./callgrind-profile.ts";

const load = callgrindFixture;

function fn(profile: InstructionProfile, name: string, object = "demo"): FunctionCost {
  const f = profile.functions.get(functionKey(object, name));
  if (f === undefined) throw new Error(`no ${name} in the profile`);
  return f;
}

const selfSum = (p: InstructionProfile): number =>
  [...p.functions.values()].reduce((sum, f) => sum + f.self, 0);

// The independent oracle: `callgrind_annotate` (valgrind 3.19) on the same files, once without and
// once with --inclusive=yes. It splits a function's self cost by the file of inlined code
// (fi=/fe=), so a function's self is the sum of its rows; its inclusive is the row named by the
// function's own file ([…/stage/demo]). Numbers copied from its output, kept beside the files
// (annotate.*.txt, annotate-inclusive.*.txt; commands in the folder's README.md).
describe("parseCallgrind on real Callgrind 3.19 files of the demo crate", () => {
  it("normalize, base: totals, self and inclusive as callgrind_annotate has them", () => {
    const p = load("normalize.base");
    expect(p.total).toBe(469_709_998); // totals: and summary:, and annotate's PROGRAM TOTALS
    expect(selfSum(p)).toBe(p.total);
    expect(p.command).toBe("stage/demo --bench --profile-time 1 --exact normalize");
    const normalize = fn(p, "demo_crate::normalize");
    expect(normalize.self).toBe(301_856_761 + 83_967_940 + 83_861_496);
    expect(normalize.inclusive).toBe(469_686_197);
    expect(normalize.calls).toBe(2047); // 11 + 2036 from the two inlined call sites
    expect(normalize.file).toBe("/tmp/w29/base/src/lib.rs");
    expect(fn(p, "criterion::bencher::Bencher<M>::iter").inclusive).toBe(469_703_672);
    expect(fn(p, "criterion::routine::Routine::profile").inclusive).toBe(469_709_998);
    const warmUp =
      "<criterion::routine::Function<M,F,T> as criterion::routine::Routine<M,T>>::warm_up";
    expect(fn(p, warmUp).inclusive).toBe(469_703_994);
  });

  it("normalize, head: three passes, about three times the instructions per call", () => {
    const p = load("normalize.head");
    expect(p.total).toBe(704_208_601);
    expect(selfSum(p)).toBe(p.total);
    const normalize = fn(p, "demo_crate::normalize");
    expect(normalize.self).toBe(452_563_947 + 125_893_449 + 125_734_884);
    expect(normalize.inclusive).toBe(704_192_280);
    expect(normalize.calls).toBe(1023);
    expect(fn(p, "criterion::bencher::Bencher<M>::iter").inclusive).toBe(704_202_301);
  });

  it("fnv1a, base and head: the hashing loop is inlined into fnv1a", () => {
    const base = load("fnv1a.base");
    const head = load("fnv1a.head");
    expect([base.total, head.total]).toEqual([504_294_934, 520_547_366]);
    expect(fn(base, "demo_crate::fnv1a").self).toBe(
      201_648_118 + 167_767_040 + 134_279_166 + 196_602 + 98_301 + 32_767,
    );
    expect(fn(base, "demo_crate::fnv1a").inclusive).toBe(504_021_994);
    expect(fn(head, "demo_crate::fnv1a").inclusive).toBe(520_274_426);
    expect(fn(head, "demo_crate::fnv1a").calls).toBe(32_767);
  });

  it("keeps the same name in two objects apart, and records each call arc once", () => {
    const p = load("normalize.base");
    expect(fn(p, "(below main)", "demo").inclusive).toBe(p.total);
    expect(fn(p, "(below main)", "libc.so.6").inclusive).toBe(p.total);
    const keys = p.arcs.map((a) => `${a.caller}->${a.callee}`);
    expect(new Set(keys).size).toBe(keys.length);
    const toNormalize = p.arcs.filter(
      (a) => a.callee === functionKey("demo", "demo_crate::normalize"),
    );
    expect(toNormalize.map((a) => [a.calls, a.inclusive])).toEqual([[2047, 469_686_197]]);
  });

  it("adds up the parts of several processes' files joined into one", () => {
    // Each file numbers its names from (1): a part that kept the one before's tables would
    // misname every function, or refuse a redefined id.
    const texts = [callgrindFixtureText("normalize.base"), callgrindFixtureText("fnv1a.base")];
    const normalize = load("normalize.base");
    const fnv1a = load("fnv1a.base");
    const joined = parseCallgrind(texts.join(""), "joined");
    expect(joined.total).toBe(normalize.total + fnv1a.total);
    expect(selfSum(joined)).toBe(joined.total);
    expect(joined.command).toBe(normalize.command);
    expect(fn(joined, "demo_crate::normalize")).toEqual(fn(normalize, "demo_crate::normalize"));
    expect(fn(joined, "demo_crate::fnv1a")).toEqual(fn(fnv1a, "demo_crate::fnv1a"));
    const main = (p: InstructionProfile): number => fn(p, "(below main)", "libc.so.6").inclusive;
    expect(main(joined)).toBe(main(normalize) + main(fnv1a));
  });
});

const HEADER = "events: Ir Dr\npositions: line\n";

describe("parseCallgrind on hand-made files", () => {
  it("reads compression, relative positions, missing counts, recursion and totals", () => {
    const p = parseCallgrind(
      `${HEADER}ob=(1) /bin/prog\nfl=(1) a.rs\nfn=(1) main\n10 5 1\n+2 3\n` +
        `cfn=(2) work::h0123456789abcdef\ncalls=2 20\n* 100 7\n` +
        `fl=(2) b.rs\nfn=(2)\n20 60\ncfn=(2)\ncalls=1 +1\n-1 30\n` +
        `totals: 168 8\n`,
      "hand",
    );
    expect(p.total).toBe(168);
    const work = p.functions.get(functionKey("prog", "work"));
    expect(work).toMatchObject({ self: 60, inclusive: 60, calls: 3, file: "b.rs" });
    expect(p.functions.get(functionKey("prog", "main"))).toMatchObject({
      self: 8,
      inclusive: 108,
      calls: 0,
    });
  });

  it("strips a legacy hash only at the end of a name", () => {
    expect(displayName("a::b::h0123456789abcdef")).toBe("a::b");
    expect(displayName("a::h0123456789abcdef::c")).toBe("a::h0123456789abcdef::c");
    expect(displayName("a::hxyz")).toBe("a::hxyz");
  });

  it("refuses malformed lines, with their line number", () => {
    const bad = (body: string): string => inputErrorOf(() => parseCallgrind(HEADER + body, "f"));
    expect(bad("fn=main\n1 x\n")).toBe('f: line 4: count "x" is not a non-negative integer');
    expect(bad("fn=main\n1 2 3 4\n")).toBe("f: line 4: 3 counts for 2 event(s)");
    expect(bad("fn=(3)\n")).toBe("f: line 3: name id (3) used before it is defined");
    expect(bad("fn=main\ncalls=1 2\n")).toBe("f: line 4: calls= without a cfn= before it");
    expect(bad("fn=main\ncfn=x\ncalls=1 2\n")).toBe(
      "f: line 5: the file ends after this calls= line",
    );
    expect(bad("1 2\n")).toBe("f: line 3: a cost line before the first fn=");
    expect(bad("fn=main\nzz=1\n")).toBe('f: line 4: unknown specification "zz"=');
    expect(bad("fn=main\n1 9999999999999999\n")).toBe(
      "f: line 4: count 9999999999999999 is too large to be exact",
    );
    expect(bad("fn=main\n%% 1\n")).toBe('f: line 4: not a Callgrind line: "%% 1"');
    expect(bad(`fn=${"x".repeat(40_000)}\n`)).toMatch(/line 3: line longer than/u);
    expect(inputErrorOf(() => parseCallgrind("fn=a\n1 2\n", "f"))).toBe(
      'f: line 2: a cost line before "events:"',
    );
    expect(inputErrorOf(() => parseCallgrind("fn=a\n", "f"))).toBe(
      'f: line 1: not a Callgrind output file: no "events:" line',
    );
    expect(inputErrorOf(() => parseCallgrind("events: Dr\n", "f"))).toMatch(/no Ir event/u);
  });

  it("treats names as opaque text", () => {
    const p = parseCallgrind(`${HEADER}fl=../../etc/passwd\nfn=<script>|x\n1 5\n`, "f");
    expect([...p.functions.values()].map((f) => [f.name, f.file])).toEqual([
      ["<script>|x", "../../etc/passwd"],
    ]);
  });
});

describe("parseCallgrind on damaged files", () => {
  // A real file's lines, some dropped, duplicated or swapped for fragments of the format:
  // whatever comes out is a profile of finite counts, or an InputError, never another failure.
  const real = readFileSync(`${FIXTURES}/callgrind-3.19/callgrind.out.fnv1a.base`, "utf8")
    .split("\n")
    .slice(0, 400);
  const fragment = fc.constantFrom(
    "fn=(99999)",
    "calls=3 +1",
    "cfn=(1) x",
    "* 5",
    "+1 2 3",
    "-99999999999999999999 1",
    "fl=(0)",
    "totals: 5",
    "events: Ir",
    "positions: instr line",
    "jump=1 2",
    "fi=(2) z",
    "0x1F 4",
    "",
    "\r",
  );
  const edit = fc.tuple(fc.nat({ max: 399 }), fc.oneof(fragment, fc.constant(undefined)));

  it("property: a profile of finite counts, or an InputError", () => {
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
        const lines = [...real];
        for (const [at, line] of edits)
          if (line === undefined) lines.splice(at, 1);
          else lines.splice(at, 0, line);
        try {
          const p = parseCallgrind(lines.join("\n"), "damaged");
          expect(Number.isFinite(p.total)).toBe(true);
          for (const f of p.functions.values())
            expect(Number.isFinite(f.inclusive) && f.inclusive >= f.self).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
