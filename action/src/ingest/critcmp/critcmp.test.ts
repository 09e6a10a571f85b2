import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCritcmp } from "./critcmp.ts";
import { guessFormat } from "../format-hint.ts";
import { FIXTURES, SHARED, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";

const SUITE = { suite: "critcmp", guess: guessFormat };

/** Captured critcmp exports: the shared samples and the project's own (when present). */
const CAPTURED = [SHARED, FIXTURES]
  .flatMap((root) =>
    readdirSync(root)
      .filter((d) => d.startsWith("critcmp-"))
      .map((d) => `${root}/${d}`),
  )
  .flatMap((dir) => readdirSync(dir).map((f) => `${dir}/${f}`))
  .filter((f) => f.endsWith(".json"));

describe("parseCritcmp", () => {
  it("reads estimates with their CIs, keyed by full_id, without samples", async () => {
    const benchmarks = parseCritcmp(
      await loadJson(`${SHARED}/critcmp-0.1.8/base.json`),
      "base.json",
      SUITE,
    );
    expect(benchmarks.map((b) => b.id)).toEqual([
      "fib 20",
      "sort/unstable/1000",
      "sum_vec/1000",
      "sum_vec/10000",
    ]);
    const fib = benchmarks[0];
    expect(fib).toMatchObject({
      source: "critcmp",
      unit: "ns",
      direction: "smaller_is_better",
      suite: "critcmp",
    });
    expect(fib?.samples).toBeUndefined();
    expect(fib?.estimates.mean).toEqual({
      point: 30540.76441355201,
      lower: 30215.997454897097,
      upper: 30854.54247312317,
      level: 0.95,
    });
    expect(fib?.metadata?.["baseline"]).toBe("base");
    // critcmp's own throughput struct: {"Bytes": null, "Elements": 1000}
    expect(benchmarks[2]?.throughput).toEqual([{ kind: "elements", per_iteration: 1000 }]);
  });

  it("accepts the ≤ 0.3.2 estimate key style", async () => {
    const data = (await loadJson(`${SHARED}/critcmp-0.1.8/head.json`)) as {
      benchmarks: Record<string, { criterion_estimates_v1: Record<string, unknown> }>;
    };
    for (const entry of Object.values(data.benchmarks)) {
      const e = entry.criterion_estimates_v1;
      entry.criterion_estimates_v1 = {
        Mean: e["mean"],
        Median: e["median"],
        StdDev: e["std_dev"],
        Slope: e["slope"],
      };
    }
    const benchmarks = parseCritcmp(data, "head.json", SUITE);
    expect(benchmarks[0]?.metadata?.["criterion_layout"]).toBe("pre-0.3.3");
    expect(benchmarks[0]?.estimates.median).toMatchObject({ level: 0.95 });
  });

  it.each(CAPTURED)("reads the captured export %s", async (file) => {
    const benchmarks = parseCritcmp(await loadJson(file), file, SUITE);
    expect(benchmarks.length).toBeGreaterThan(0);
  });

  const entry = (fullId: string): unknown => ({
    baseline: "b",
    fullname: `b/${fullId}`,
    criterion_benchmark_v1: {
      group_id: fullId,
      function_id: null,
      value_str: null,
      throughput: null,
      full_id: fullId,
    },
    criterion_estimates_v1: {
      mean: {
        confidence_interval: { confidence_level: 0.95, lower_bound: 1, upper_bound: 3 },
        point_estimate: 2,
        standard_error: 0.1,
      },
      median: {
        confidence_interval: { confidence_level: 0.95, lower_bound: 1, upper_bound: 3 },
        point_estimate: 2,
        standard_error: 0.1,
      },
      std_dev: {
        confidence_interval: { confidence_level: 0.95, lower_bound: 0, upper_bound: 1 },
        point_estimate: 0.5,
        standard_error: 0.1,
      },
      slope: null,
    },
  });

  it.each<[string, unknown, string]>([
    [
      "a hyperfine export",
      { results: [{ command: "x" }] },
      'f: not a critcmp --export file: missing "benchmarks" object (it looks like hyperfine --export-json output (use: ingest hyperfine))',
    ],
    ["no benchmarks", { name: "b", benchmarks: {} }, "f: /benchmarks: no benchmarks"],
    [
      "a key that is not the full_id",
      { name: "b", benchmarks: { a: entry("b") } },
      'f: /benchmarks/a/criterion_benchmark_v1/full_id: full_id "b" does not match its key "a"',
    ],
    [
      "missing estimates",
      { name: "b", benchmarks: { a: { criterion_benchmark_v1: {} } } },
      'f: /benchmarks/a: missing "criterion_estimates_v1"',
    ],
    [
      "a negative estimate",
      {
        name: "b",
        benchmarks: {
          "g/1": JSON.parse(
            JSON.stringify(entry("g/1")).replace('"point_estimate":2', '"point_estimate":-2'),
          ) as unknown,
        },
      },
      "f: /benchmarks/g~11/criterion_estimates_v1/mean/point_estimate: must not be negative (found -2)",
    ],
    [
      "a name that is not a string",
      { name: 5, benchmarks: { a: entry("a") } },
      "f: /name: expected a string, found a number",
    ],
  ])("rejects %s", (_name, data, message) => {
    expect(inputErrorOf(() => parseCritcmp(data, "f", SUITE))).toBe(message);
  });
});
