import { beforeAll, describe, expect, it } from "vitest";
import { criterionBenchmark, type CriterionDocuments } from "./criterion.ts";
import { parseThroughput } from "./criterion-throughput.ts";
import { rootAt } from "../json-guards.ts";
import { FIXTURES, SHARED, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";

const SOURCES = {
  benchmark: "b/benchmark.json",
  estimates: "b/estimates.json",
  sample: "b/sample.json",
};

async function docsAt(
  dir: string,
): Promise<CriterionDocuments & { sample: { iters: number[]; times: number[] } }> {
  return {
    benchmark: await loadJson(`${dir}/benchmark.json`),
    estimates: await loadJson(`${dir}/estimates.json`),
    sample: (await loadJson(`${dir}/sample.json`)) as { iters: number[]; times: number[] },
  };
}

describe("criterionBenchmark on criterion 0.8.2 output", () => {
  let docs: Awaited<ReturnType<typeof docsAt>>;
  beforeAll(async () => {
    docs = await docsAt(`${SHARED}/criterion-0.8.2/sum_vec/1000/base`);
  });

  it("keys by full_id, normalizes to ns per iteration and keeps the CIs", () => {
    const b = criterionBenchmark(docs, SOURCES, { suite: "tiny", baseline: "base" });
    expect(b.id).toBe("sum_vec/1000");
    expect(b).toMatchObject({
      suite: "tiny",
      source: "criterion",
      unit: "ns",
      direction: "smaller_is_better",
    });
    expect(b.sample_kind).toBe("per_iteration");
    expect(b.samples).toHaveLength(100);
    expect(b.samples?.[0]).toBeCloseTo(254512 / 1361, 9);
    b.samples?.forEach((s, j) =>
      expect(s).toBe((docs.sample.times[j] ?? NaN) / (docs.sample.iters[j] ?? NaN)),
    );
    expect(b.estimates.mean).toEqual({
      point: 156.3156481428524,
      lower: 151.52384692422677,
      upper: 160.90136636766977,
      level: 0.95,
    });
    expect(b.estimates.median).toMatchObject({ point: 164.6437642325991, level: 0.95 });
    expect(b.estimates.std_dev).toMatchObject({ point: 24.142272038550566 });
    expect(b.metadata).toMatchObject({
      slope: 146.27343672511944,
      slope_lower: 140.28100828591874,
      slope_upper: 152.74214898837218,
      median_abs_dev: 16.043216959106875,
      sampling_mode: "Linear",
      criterion_layout: "0.3.3+",
      group_id: "sum_vec",
      value_str: "1000",
      baseline: "base",
    });
    expect(b.throughput).toEqual([{ kind: "elements", per_iteration: 1000 }]);
  });

  it("reads Flat sampling with slope: null (no slope in metadata)", async () => {
    const flat = await docsAt(`${SHARED}/criterion-0.8.2/flat/fib25/flatdemo`);
    const b = criterionBenchmark(flat, SOURCES, { suite: "s" });
    expect(b.id).toBe("flat/fib25");
    expect(b.metadata?.["sampling_mode"]).toBe("Flat");
    expect(b.metadata).not.toHaveProperty("slope");
    expect(b.samples).toHaveLength(10);
    expect(b.samples?.[0]).toBeCloseTo(55488902 / 166, 6);
    expect(b.throughput).toEqual([{ kind: "bytes", per_iteration: 4096 }]);
  });

  it("uses full_id, never the sanitized directory name, for the hostile-name benchmark", async () => {
    const dir = `${FIXTURES}/criterion-0.8.2/evil_name \`tick\` _b_x__b_ @someone #12/base`;
    const b = criterionBenchmark(await docsAt(dir), SOURCES, { suite: "s" });
    expect(b.id).toBe("evil|name `tick` <b>x</b> @someone #12");
  });
});

describe("criterionBenchmark on criterion ≤ 0.3.2 output (PascalCase estimates, tuple sample)", () => {
  it("reads the legacy layout", async () => {
    const dir = `${FIXTURES}/criterion-0.3.2/fib 20/base`;
    const docs = await docsAt(dir);
    const raw = docs.sample as unknown as [number[], number[]];
    const estimates = docs.estimates as Record<string, { point_estimate: number }>;
    const b = criterionBenchmark(docs, SOURCES, { suite: "s" });
    expect(b.id).toBe("fib 20");
    expect(b.metadata).toMatchObject({ criterion_layout: "pre-0.3.3", sampling_mode: "Linear" });
    expect(b.metadata?.["slope"]).toBe(estimates["Slope"]?.point_estimate);
    expect(b.estimates.mean).toMatchObject({
      point: estimates["Mean"]?.point_estimate,
      level: 0.95,
    });
    expect(b.estimates.median).toMatchObject({ point: estimates["Median"]?.point_estimate });
    expect(b.samples).toHaveLength(raw[0].length);
    expect(b.samples?.[3]).toBe((raw[1][3] ?? NaN) / (raw[0][3] ?? NaN));
  });
});

describe("parseThroughput", () => {
  it.each([
    [{ Bytes: 4096 }, [{ kind: "bytes", per_iteration: 4096 }]],
    [{ BytesDecimal: 4096 }, [{ kind: "bytes", per_iteration: 4096, decimal: true }]],
    [{ Elements: 1000 }, [{ kind: "elements", per_iteration: 1000 }]],
    [{ Bits: 32768 }, [{ kind: "bits", per_iteration: 32768 }]],
    [
      { ElementsAndBytes: { elements: 256, bytes: 5728 } },
      [
        { kind: "elements", per_iteration: 256 },
        { kind: "bytes", per_iteration: 5728 },
      ],
    ],
    [{ Bytes: null, Elements: 1000 }, [{ kind: "elements", per_iteration: 1000 }]], // critcmp's struct
    [null, []],
  ])("%j", (raw, expected) => {
    expect(parseThroughput(raw, rootAt("f")).throughput).toEqual(expected);
  });

  it("ignores an unknown variant with a note", () => {
    const result = parseThroughput({ Frobs: 3 }, rootAt("f"));
    expect(result.throughput).toEqual([]);
    expect(result.notes).toEqual(['unknown throughput variant "Frobs" ignored']);
  });

  it("records the note in metadata", async () => {
    const docs = await docsAt(`${SHARED}/criterion-0.8.2/sum_vec/1000/base`);
    const benchmark = { ...(docs.benchmark as object), throughput: { Frobs: 3 } };
    const b = criterionBenchmark({ ...docs, benchmark }, SOURCES, { suite: "s" });
    expect(b.throughput).toBeUndefined();
    expect(b.metadata?.["throughput_note"]).toBe('unknown throughput variant "Frobs" ignored');
  });

  it.each([
    [{ Bytes: -1 }, "f: /Bytes: must not be negative (found -1)"],
    [{ Bytes: "1" }, "f: /Bytes: expected a number, found a string"],
    [
      { ElementsAndBytes: { elements: 1 } },
      "f: /ElementsAndBytes/bytes: expected a number, found nothing (the field is missing)",
    ],
    [{ Bytes: 1, BytesDecimal: 2 }, "f: /BytesDecimal: throughput has two bytes counts"],
    [[1], "f: expected a throughput object or null, found an array"],
  ])("rejects %j", (raw, message) => {
    expect(inputErrorOf(() => parseThroughput(raw, rootAt("f")))).toBe(message);
  });
});

describe("criterionBenchmark rejects hostile files, naming the file and JSON path", () => {
  let docs: Awaited<ReturnType<typeof docsAt>>;
  beforeAll(async () => {
    docs = await docsAt(`${SHARED}/criterion-0.8.2/sum_vec/1000/base`);
  });

  const estimatesWith = (patch: (e: Record<string, Record<string, unknown>>) => void): unknown => {
    const e = structuredClone(docs.estimates) as Record<string, Record<string, unknown>>;
    patch(e);
    return e;
  };

  it.each<[string, (d: Awaited<ReturnType<typeof docsAt>>) => CriterionDocuments, string]>([
    [
      "mismatched array lengths",
      (d) => ({ ...d, sample: { ...d.sample, times: d.sample.times.slice(1) } }),
      "b/sample.json: iters has 100 values but times has 99",
    ],
    [
      "iters 0",
      (d) => ({ ...d, sample: { ...d.sample, iters: [0, ...d.sample.iters.slice(1)] } }),
      "b/sample.json: /iters/0: iteration count must be positive (found 0)",
    ],
    [
      "a negative time",
      (d) => ({ ...d, sample: { ...d.sample, times: [-5, ...d.sample.times.slice(1)] } }),
      "b/sample.json: /times/0: must not be negative (found -5)",
    ],
    [
      "1e400 (parses to Infinity)",
      (d) => ({
        ...d,
        sample: JSON.parse(
          JSON.stringify(d.sample).replace(/"times":\[[0-9.]+/, '"times":[1e400'),
        ) as unknown,
      }),
      "b/sample.json: /times/0: number is out of range (Infinity)",
    ],
    [
      "NaN",
      (d) => ({ ...d, sample: { ...d.sample, times: [NaN, ...d.sample.times.slice(1)] } }),
      "b/sample.json: /times/0: number is out of range (NaN)",
    ],
    [
      "a string sample",
      (d) => ({ ...d, sample: { ...d.sample, iters: ["1", ...d.sample.iters.slice(1)] } }),
      "b/sample.json: /iters/0: expected a number, found a string",
    ],
    [
      "empty samples",
      (d) => ({ ...d, sample: { sampling_mode: "Flat", iters: [], times: [] } }),
      "b/sample.json: /iters: no samples",
    ],
    [
      "a 3-tuple sample",
      (d) => ({ ...d, sample: [[1], [2], [3]] }),
      "b/sample.json: expected [iters, times] (2 arrays), found 3 items",
    ],
    [
      "a sample that is a string",
      (d) => ({ ...d, sample: "x" }),
      "b/sample.json: expected a Criterion sample (object or [iters, times]), found a string",
    ],
    [
      "no full_id",
      (d) => ({ ...d, benchmark: { group_id: "x" } }),
      'b/benchmark.json: missing "full_id" (not a Criterion benchmark.json)',
    ],
    [
      "__proto__ as id",
      (d) => ({ ...d, benchmark: { ...(d.benchmark as object), full_id: "__proto__" } }),
      'b/benchmark.json: /full_id: benchmark id "__proto__" is not allowed',
    ],
    [
      "an empty id",
      (d) => ({ ...d, benchmark: { ...(d.benchmark as object), full_id: " " } }),
      "b/benchmark.json: /full_id: benchmark id is empty",
    ],
    [
      "an over-long id",
      (d) => ({ ...d, benchmark: { ...(d.benchmark as object), full_id: "x".repeat(1025) } }),
      "b/benchmark.json: /full_id: string is longer than 1024 characters",
    ],
    [
      "a missing estimate",
      (d) => ({ ...d, estimates: estimatesWith((e) => delete e["median"]) }),
      'b/estimates.json: missing estimate "median" (not a Criterion estimates.json)',
    ],
    [
      "mixed key styles",
      (d) => ({ ...d, estimates: estimatesWith((e) => (e["Mean"] = e["mean"] ?? {})) }),
      'b/estimates.json: estimates mix the ≤ 0.3.2 ("Mean") and ≥ 0.3.3 ("mean") key styles',
    ],
    [
      "a confidence level of 95",
      (d) => ({
        ...d,
        estimates: estimatesWith(
          (e) =>
            ((e["mean"]?.["confidence_interval"] as Record<string, unknown>)["confidence_level"] =
              95),
        ),
      }),
      "b/estimates.json: /mean/confidence_interval/confidence_level: confidence level must be between 0 and 1 (found 95)",
    ],
    [
      "lower bound above upper bound",
      (d) => ({
        ...d,
        estimates: estimatesWith(
          (e) =>
            ((e["median"]?.["confidence_interval"] as Record<string, unknown>)["lower_bound"] =
              1e6),
        ),
      }),
      "b/estimates.json: /median/confidence_interval: lower_bound 1000000 is above upper_bound 167.04358849644524",
    ],
    [
      "a negative point estimate",
      (d) => ({
        ...d,
        estimates: estimatesWith((e) => ((e["std_dev"] ?? {})["point_estimate"] = -1)),
      }),
      "b/estimates.json: /std_dev/point_estimate: must not be negative (found -1)",
    ],
  ])("%s", (_name, mutate, message) => {
    expect(inputErrorOf(() => criterionBenchmark(mutate(docs), SOURCES, { suite: "s" }))).toBe(
      message,
    );
  });
});
