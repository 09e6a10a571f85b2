import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import { type IngestKind, INGEST_KINDS, ingest, isIngestKind } from "./index.ts";
import { FIXTURES, HAND_MADE, SHARED, asyncInputErrorOf } from "../../test/support/fixtures.ts";

const SIDE = { side: "head", round: 2 } as const;

describe("ingest on real and hand-made inputs", () => {
  it.each<[IngestKind, string, string, number]>([
    ["criterion", `${SHARED}/criterion-0.8.2`, "criterion", 3],
    ["criterion", `${FIXTURES}/criterion-0.3.2`, "criterion", 6],
    ["hyperfine", `${SHARED}/hyperfine-1.15/basic.json`, "hyperfine", 2],
    ["critcmp", `${SHARED}/critcmp-0.1.8/head.json`, "critcmp", 4],
    ["gab", `${HAND_MADE}/gab-smaller.json`, "gab", 5],
    ["custom", `${HAND_MADE}/harness-archive.json`, "archive_write", 3],
    ["custom", `${HAND_MADE}/summary.json`, "harness", 1],
    ["gungraun", `${FIXTURES}/gungraun-0.20/run-1`, "gungraun", 26],
    ["gungraun", `${FIXTURES}/iai-callgrind-0.16/run-2`, "gungraun", 26],
    ["cachegrind", `${FIXTURES}/cachegrind-3.19/cachegrind.out.true-sim`, "cachegrind", 13],
    ["cachegrind", `${FIXTURES}/cachegrind-3.19/callgrind.out.true`, "cachegrind", 1],
  ])("%s %s → a valid summary", async (kind, input, suite, count) => {
    // Only a directory kind with baselines takes one; file kinds ignore it.
    const baseline = kind === "gungraun" || kind === "cachegrind" ? {} : { baseline: "base" };
    const summary = await ingest(
      kind,
      input,
      { ...SIDE, ...baseline, version: "1.2.3" },
      nodeFileReader,
    );
    expect(() => validateSummary(summary, input)).not.toThrow();
    expect(summary).toMatchObject({ schema_version: 1, side: "head", round: 2 });
    expect(summary.generator).toMatchObject({ name: "benchgate", version: "1.2.3", input });
    expect(summary.benchmarks).toHaveLength(count);
    expect(new Set(summary.benchmarks.map((b) => b.suite))).toEqual(new Set([suite]));
  });

  it("uses the --suite option and defaults the version", async () => {
    const summary = await ingest(
      "hyperfine",
      `${SHARED}/hyperfine-1.15/param.json`,
      { ...SIDE, suite: "sort" },
      nodeFileReader,
    );
    expect(summary.benchmarks.every((b) => b.suite === "sort")).toBe(true);
    expect(summary.generator?.version).toBe("0.0.0");
  });

  it("keeps a passed-through summary's commit and tool version but sets side and round", async () => {
    const summary = await ingest(
      "custom",
      `${HAND_MADE}/summary.json`,
      { ...SIDE, suite: "mine" },
      nodeFileReader,
    );
    expect(summary).toMatchObject({
      side: "head",
      round: 2,
      commit: "0123456789abcdef0123456789abcdef01234567",
      generator: { name: "benchgate", tool_version: "harness 1.2.3" },
    });
    expect(summary.benchmarks[0]?.suite).toBe("mine");
  });

  it("knows its kinds", () => {
    expect(INGEST_KINDS).toEqual([
      "criterion",
      "hyperfine",
      "critcmp",
      "custom",
      "gab",
      "gungraun",
      "cachegrind",
      "oha",
      "k6",
      "vegeta",
      "divan",
    ]);
    expect(isIngestKind("gab")).toBe(true);
    expect(isIngestKind("toString")).toBe(false);
  });

  it("names the harness's summary version, and Callgrind's creator, as the tool version", async () => {
    const v6 = await ingest(
      "gungraun",
      `${FIXTURES}/iai-callgrind-0.16/run-1`,
      SIDE,
      nodeFileReader,
    );
    expect(v6.generator?.tool_version).toBe("iai-callgrind summary v6");
    const v7 = await ingest("gungraun", `${FIXTURES}/gungraun-0.20/run-1`, SIDE, nodeFileReader);
    expect(v7.generator?.tool_version).toBe("gungraun summary v7");
    const callgrind = `${FIXTURES}/cachegrind-3.19/callgrind.out.true`;
    const cg = await ingest("cachegrind", callgrind, SIDE, nodeFileReader);
    expect(cg.generator?.tool_version).toBe("callgrind-3.19.0");
  });

  it("--name is the id of a cachegrind file's benchmark", async () => {
    const file = `${FIXTURES}/cachegrind-3.19/cachegrind.out.true`;
    const summary = await ingest("cachegrind", file, { ...SIDE, name: "startup" }, nodeFileReader);
    expect(summary.benchmarks.map((b) => b.id)).toEqual(["startup"]);
  });

  it.each<[string, IngestKind, string, Parameters<typeof ingest>[2], string]>([
    [
      "a baseline for gungraun, which reads one run",
      "gungraun",
      `${FIXTURES}/gungraun-0.20/run-1`,
      { ...SIDE, baseline: "base" },
      `${FIXTURES}/gungraun-0.20/run-1: ingest gungraun reads one run and takes no baseline name (--baseline)`,
    ],
    [
      "a name for a kind that reads ids from its file",
      "hyperfine",
      `${SHARED}/hyperfine-1.15/basic.json`,
      { ...SIDE, name: "x" },
      "ingest hyperfine takes no benchmark name (--name is for cachegrind, oha, k6, vegeta)",
    ],
    [
      "a name with a line break",
      "cachegrind",
      `${FIXTURES}/cachegrind-3.19/cachegrind.out.true`,
      { ...SIDE, name: "a\nb" },
      'invalid benchmark name "a\\nb": it holds a control character (1–256 characters, no control characters)',
    ],
    [
      "an empty name",
      "cachegrind",
      `${FIXTURES}/cachegrind-3.19/cachegrind.out.true`,
      { ...SIDE, name: "" },
      'invalid benchmark name "": it is empty (1–256 characters, no control characters)',
    ],
    [
      "a name longer than 256 characters",
      "cachegrind",
      `${FIXTURES}/cachegrind-3.19/cachegrind.out.true`,
      { ...SIDE, name: "n".repeat(257) },
      `invalid benchmark name "${"n".repeat(64)}": it is longer than 256 characters (1–256 characters, no control characters)`,
    ],
  ])("rejects %s", async (_name, kind, input, options, message) => {
    expect(await asyncInputErrorOf(() => ingest(kind, input, options, nodeFileReader))).toBe(
      message,
    );
  });

  it.each<[string, Parameters<typeof ingest>[2], string]>([
    [
      "no baseline for criterion",
      { ...SIDE },
      `${SHARED}/criterion-0.8.2: ingest criterion needs a baseline name (--baseline NAME)`,
    ],
    [
      "a bad side",
      { side: "head; rm -rf", round: 1, baseline: "base" },
      'invalid side "head; rm -rf" (1–64 letters, digits, ".", "_" or "-")',
    ],
    [
      "round 0",
      { side: "head", round: 0, baseline: "base" },
      "invalid round 0 (an integer from 1 to 10000)",
    ],
    [
      "an empty suite",
      { ...SIDE, suite: " ", baseline: "base" },
      'invalid suite name " " (1–256 characters)',
    ],
  ])("rejects %s", async (_name, options, message) => {
    expect(
      await asyncInputErrorOf(() =>
        ingest("criterion", `${SHARED}/criterion-0.8.2`, options, nodeFileReader),
      ),
    ).toBe(message);
  });
});

describe("ingest rejects bad inputs with one line naming the file and the problem", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-"));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const hyperfine = readFileSync(`${SHARED}/hyperfine-1.15/basic.json`, "utf8");
  const critcmp = readFileSync(`${SHARED}/critcmp-0.1.8/base.json`, "utf8");
  const gab = readFileSync(`${HAND_MADE}/gab-smaller.json`, "utf8");
  const harness = readFileSync(`${HAND_MADE}/harness-archive.json`, "utf8");
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;

  it.each<[string, Exclude<IngestKind, "criterion">, string, RegExp]>([
    ["truncated JSON", "hyperfine", hyperfine.slice(0, 200), /: invalid JSON \(/],
    [
      "NaN",
      "hyperfine",
      hyperfine.replace('"mean": 0.08947955460000001', '"mean": NaN'),
      /: invalid JSON \(/,
    ],
    ["Infinity", "gab", gab.replace('"value": 27100', '"value": Infinity'), /: invalid JSON \(/],
    [
      "1e400",
      "hyperfine",
      hyperfine.replace('"mean": 0.08947955460000001', '"mean": 1e400'),
      /: \/results\/0\/mean: number is out of range \(Infinity\)$/,
    ],
    [
      "a negative value",
      "critcmp",
      critcmp.replace('"point_estimate": 30540.76441355201', '"point_estimate": -30540.7'),
      /: \/benchmarks\/fib 20\/criterion_estimates_v1\/mean\/point_estimate: must not be negative \(found -30540.7\)$/,
    ],
    [
      "a duplicate id",
      "hyperfine",
      hyperfine.replace('"command": "sort input.txt"', '"command": "sort -n input.txt"'),
      /: \/results\/1\/command: duplicate benchmark id "sort -n input.txt" \(also at \/results\/0\/command\)$/,
    ],
    [
      "a duplicate id",
      "gab",
      gab.replace('"name": "sum_vec/1000"', '"name": "fib 20"'),
      /: \/1\/name: duplicate benchmark id "fib 20"/,
    ],
    [
      "__proto__ as id",
      "hyperfine",
      hyperfine.replace('"command": "sort input.txt"', '"command": "__proto__"'),
      /: \/results\/1\/command: benchmark id "__proto__" is not allowed$/,
    ],
    [
      "__proto__ as id",
      "critcmp",
      critcmp.replaceAll('"fib 20"', '"__proto__"'),
      /: \/benchmarks\/__proto__: object key "__proto__" is not allowed$/,
    ],
    [
      "__proto__ as object key",
      "custom",
      harness.replace('"suite"', '"__proto__": {"polluted": true}, "suite"'),
      /: \/__proto__: object key "__proto__" is not allowed$/,
    ],
    [
      "__proto__ as object key (escaped)",
      "gab",
      '[{"name":"a","unit":"ms","value":1,"\\u005f_proto__":{}}]',
      /: \/0\/__proto__: object key "__proto__" is not allowed$/,
    ],
    ["deep nesting", "custom", deep, /: JSON is nested deeper than 32 levels$/],
    ["an empty file", "gab", "  \n", /: file is empty$/],
    [
      "a hyperfine file given to critcmp",
      "critcmp",
      hyperfine,
      /: not a critcmp --export file: missing "benchmarks" object \(it looks like hyperfine --export-json output/,
    ],
    [
      "a critcmp file given to hyperfine",
      "hyperfine",
      critcmp,
      /: not a hyperfine --export-json file: missing "results" \(it looks like critcmp --export output/,
    ],
    [
      "a gab file given to custom",
      "custom",
      gab,
      /: not a custom summary: this looks like github-action-benchmark custom JSON/,
    ],
    [
      "a harness summary given to gab",
      "gab",
      harness,
      /: not github-action-benchmark custom JSON: expected an array/,
    ],
    [
      "a failed command",
      "hyperfine",
      readFileSync(`${SHARED}/hyperfine-1.15/failing.json`, "utf8"),
      /: \/results\/0\/exit_codes: command "false" failed in 3 of 3 runs \(exit codes: 1, 1, 1\)/,
    ],
  ])("%s (%s)", async (name, kind, content, problem) => {
    const file = path.join(tmp, `${kind}-${name.replace(/\W+/g, "-")}.json`);
    writeFileSync(file, content);
    const error = await ingest(kind, file, SIDE, nodeFileReader).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const line = (error as InputError).describe();
    expect(line.startsWith(`${file}: `)).toBe(true);
    expect(line).toMatch(problem);
    expect(line).not.toContain("\n");
  });

  it.each(["hyperfine", "critcmp", "custom", "gab", "cachegrind"] as const)(
    "a huge (sparse, > 200 MB) file given to %s",
    async (kind) => {
      const file = path.join(tmp, `huge-${kind}.json`);
      writeFileSync(file, "");
      truncateSync(file, 201 * 1024 * 1024);
      expect(await asyncInputErrorOf(() => ingest(kind, file, SIDE, nodeFileReader))).toBe(
        `${file}: file is too large (210763776 bytes, limit 67108864)`,
      );
    },
  );

  it("a missing file", async () => {
    const file = path.join(tmp, "missing.json");
    expect(await asyncInputErrorOf(() => ingest("gab", file, SIDE, nodeFileReader))).toBe(
      `${file}: file not found`,
    );
  });

  it("a Criterion directory without the requested baseline", async () => {
    const dir = `${SHARED}/criterion-0.8.2`;
    expect(
      await asyncInputErrorOf(() =>
        ingest("criterion", dir, { ...SIDE, baseline: "pr-head" }, nodeFileReader),
      ),
    ).toBe(`${dir}: no benchmark has baseline "pr-head" (found: base, flatdemo, head, new)`);
  });
});
