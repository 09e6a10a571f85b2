import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseHyperfine } from "./hyperfine.ts";
import { guessFormat } from "../format-hint.ts";
import { FIXTURES, SHARED, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";

const SUITE = { suite: "cli", guess: guessFormat };

/** Captured hyperfine exports: the shared samples and the project's own (when present). */
const CAPTURED = [SHARED, FIXTURES]
  .flatMap((root) =>
    readdirSync(root)
      .filter((d) => d.startsWith("hyperfine-"))
      .map((d) => `${root}/${d}`),
  )
  .flatMap((dir) => readdirSync(dir).map((f) => `${dir}/${f}`))
  .filter((f) => f.endsWith(".json"));

describe("parseHyperfine", () => {
  it("converts seconds to ns and keeps every run as a per-process sample", async () => {
    const [first, second] = parseHyperfine(
      await loadJson(`${SHARED}/hyperfine-1.15/basic.json`),
      "basic.json",
      SUITE,
    );
    expect(first).toMatchObject({
      id: "sort -n input.txt",
      suite: "cli",
      source: "hyperfine",
      unit: "ns",
      direction: "smaller_is_better",
      sample_kind: "per_process",
    });
    expect(first?.samples).toHaveLength(10);
    expect(first?.samples?.[1]).toBeCloseTo(83016069, 3);
    expect(first?.estimates.mean).toBeCloseTo(89479554.6, 3);
    expect(first?.estimates.median).toBeCloseTo(91425396, 3);
    expect(first?.estimates.min).toBeCloseTo(83016069, 3);
    expect(first?.estimates.max).toBeCloseTo(95467890, 3);
    expect(first?.estimates.std_dev).toBeCloseTo(4177058.76, 1);
    expect(first?.metadata?.["user_mean_ns"]).toBeCloseTo(124761500, 3);
    expect(second?.id).toBe("sort input.txt");
  });

  it("records parameters in metadata; the id is the substituted command", async () => {
    const results = parseHyperfine(
      await loadJson(`${SHARED}/hyperfine-1.15/param.json`),
      "param.json",
      SUITE,
    );
    expect(results.map((b) => [b.id, b.metadata?.["parameter.threads"]])).toEqual([
      ["sort --parallel=1 -n input.txt", "1"],
      ["sort --parallel=2 -n input.txt", "2"],
    ]);
  });

  it("omits std_dev when hyperfine wrote null (a single run)", () => {
    const data = {
      results: [
        {
          command: "one",
          mean: 1,
          stddev: null,
          median: 1,
          min: 1,
          max: 1,
          times: [1],
          exit_codes: [0],
        },
      ],
    };
    const [only] = parseHyperfine(data, "one.json", SUITE);
    expect(only?.estimates).toEqual({ mean: 1e9, median: 1e9, min: 1e9, max: 1e9 });
  });

  it.runIf(existsSync(`${FIXTURES}/hyperfine-1.15/single-run.json`))(
    "omits std_dev on the captured single-run export (stddev: null)",
    async () => {
      const data = await loadJson(`${FIXTURES}/hyperfine-1.15/single-run.json`);
      const [only] = parseHyperfine(data, "single-run.json", SUITE);
      expect(only?.estimates).not.toHaveProperty("std_dev");
      expect(only?.samples).toHaveLength(1);
    },
  );

  it("reads memory_usage_byte (hyperfine 1.20)", () => {
    const data = {
      results: [
        {
          command: "m",
          mean: 1,
          stddev: 0,
          median: 1,
          min: 1,
          max: 1,
          times: [1, 1],
          exit_codes: [0, 0],
          memory_usage_byte: [10, 30],
        },
      ],
    };
    expect(parseHyperfine(data, "m.json", SUITE)[0]?.metadata?.["max_rss_bytes"]).toBe(30);
  });

  it("treats a failing command as an error, never a number", async () => {
    const data = await loadJson(`${SHARED}/hyperfine-1.15/failing.json`);
    expect(inputErrorOf(() => parseHyperfine(data, "failing.json", SUITE))).toBe(
      'failing.json: /results/0/exit_codes: command "false" failed in 3 of 3 runs (exit codes: 1, 1, 1); a failing command is not benchmarked',
    );
  });

  it.each(CAPTURED.filter((f) => !f.includes("fail")))(
    "reads the captured export %s",
    async (file) => {
      const benchmarks = parseHyperfine(await loadJson(file), file, SUITE);
      expect(benchmarks.length).toBeGreaterThan(0);
      for (const b of benchmarks) expect(b.samples?.length).toBeGreaterThan(0);
    },
  );

  it.each(CAPTURED.filter((f) => f.includes("fail")))(
    "rejects the captured failing export %s",
    async (file) => {
      const data = await loadJson(file);
      expect(inputErrorOf(() => parseHyperfine(data, file, SUITE))).toMatch(
        /exit_codes: command ".*" failed in \d+ of \d+ runs/,
      );
    },
  );

  const ok = {
    command: "c",
    mean: 1,
    stddev: 0.1,
    median: 1,
    min: 0.9,
    max: 1.1,
    times: [1, 1],
    exit_codes: [0, 0],
  };
  it.each<[string, unknown, string]>([
    [
      "a killed run (null exit code)",
      { results: [{ ...ok, exit_codes: [0, null] }] },
      'f: /results/0/exit_codes: command "c" failed in 1 of 2 runs (exit codes: null (killed by a signal)); a failing command is not benchmarked',
    ],
    [
      "no exit codes",
      {
        results: [
          { command: "c", mean: 1, stddev: 0.1, median: 1, min: 0.9, max: 1.1, times: [1, 1] },
        ],
      },
      'f: /results/0: command "c" has no "exit_codes" (hyperfine ≥ 1.15 writes them)',
    ],
    [
      "exit codes that do not match the runs",
      { results: [{ ...ok, exit_codes: [0] }] },
      "f: /results/0/exit_codes: has 1 exit codes for 2 timed runs",
    ],
    [
      "a non-integer exit code",
      { results: [{ ...ok, exit_codes: [0, "0"] }] },
      "f: /results/0/exit_codes/1: expected an integer exit code, found a string",
    ],
    [
      "a negative time",
      { results: [{ ...ok, times: [1, -1] }] },
      "f: /results/0/times/1: must not be negative (found -1)",
    ],
    [
      "Infinity (1e400)",
      { results: [{ ...ok, mean: Infinity }] },
      "f: /results/0/mean: number is out of range (Infinity)",
    ],
    [
      "a missing mean",
      { results: [{ ...ok, mean: undefined }] },
      "f: /results/0/mean: expected a number, found nothing (the field is missing)",
    ],
    ["no results", { results: [] }, "f: /results: no results"],
    [
      "results that are not a list",
      { results: {} },
      "f: /results: expected an array, found an object",
    ],
    [
      "a duplicate command",
      { results: [ok, ok] },
      'f: /results/1/command: duplicate benchmark id "c" (also at /results/0/command)',
    ],
    [
      "__proto__ as command",
      { results: [{ ...ok, command: "__proto__" }] },
      'f: /results/0/command: benchmark id "__proto__" is not allowed',
    ],
    [
      "an over-long command",
      { results: [{ ...ok, command: "x".repeat(1025) }] },
      "f: /results/0/command: command is longer than 1024 characters; give it a short name with hyperfine --command-name",
    ],
    [
      "a parameter that is an object",
      { results: [{ ...ok, parameters: { n: {} } }] },
      "f: /results/0/parameters/n: expected a string, found an object",
    ],
    [
      "a critcmp export",
      { name: "base", benchmarks: { x: { criterion_estimates_v1: {} } } },
      'f: not a hyperfine --export-json file: missing "results" (it looks like critcmp --export output (use: ingest critcmp))',
    ],
    ["an array", [], "f: expected a hyperfine --export-json object, found an array"],
  ])("rejects %s", (_name, data, message) => {
    expect(inputErrorOf(() => parseHyperfine(data, "f", SUITE))).toBe(message);
  });
});
