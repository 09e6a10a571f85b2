import { describe, expect, it } from "vitest";
import { guessFormat } from "../format-hint.ts";
import { parseCustom } from "./custom.ts";
import { parseHarnessSummary } from "./harness-summary.ts";
import { HAND_MADE, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";

describe("parseHarnessSummary (seed-style harness summary)", () => {
  it("reads per-operation percentiles and raw samples, converting to ns", async () => {
    const benchmarks = parseHarnessSummary(
      await loadJson(`${HAND_MADE}/harness-archive.json`),
      "archive.json",
      {},
    );
    expect(benchmarks.map((b) => b.id)).toEqual([
      "single_message_no_attachments",
      "single_message_inline_attachment",
      "batch_100_messages",
    ]);
    const [single, inline, batch] = benchmarks;
    expect(single).toMatchObject({
      suite: "archive_write",
      source: "custom",
      unit: "ns",
      direction: "smaller_is_better",
      sample_kind: "per_iteration",
      metadata: { count: 10 },
    });
    expect(single?.estimates.p50).toBeCloseTo(7.2e6, 3);
    expect(single?.estimates.p95).toBeCloseTo(11e6, 3);
    expect(single?.estimates.p99).toBeCloseTo(12.6e6, 3);
    expect(single?.samples).toHaveLength(10);
    expect(single?.samples?.[0]).toBeCloseTo(7e6, 3);
    expect(inline?.estimates.mean).toBeCloseTo(8.1e6, 3);
    expect(inline?.samples?.[4]).toBeCloseTo(11.3e6, 3);
    expect(batch?.estimates.p50).toBeCloseTo(101e6, 3);
    expect(batch?.metadata?.["p90"]).toBeCloseTo(110e6, 3);
    expect(batch?.samples).toEqual([100e6, 101e6, 102e6, 111e6]);
  });

  it("reads scenarios (ids scenario/stage), map and list forms, and a top-level unit", async () => {
    const benchmarks = parseHarnessSummary(
      await loadJson(`${HAND_MADE}/harness-share.json`),
      "share.json",
      { suite: "share" },
    );
    expect(benchmarks.map((b) => [b.id, b.unit])).toEqual([
      ["medium_mixed_attachments/total", "ns"],
      ["medium_mixed_attachments/snapshot", "ns"],
      ["medium_mixed_attachments/zip", "ns"],
      ["chunked_small_threshold/total", "ns"],
      ["chunked_small_threshold/zip", "ns"],
      ["chunked_small_threshold/chunks", "count"],
    ]);
    expect(benchmarks[0]?.estimates.p95).toBeCloseTo(1.89e9, 3);
    expect(benchmarks[1]?.estimates.p50).toBeCloseTo(31e6, 3);
    expect(benchmarks[2]?.sample_kind).toBe("unknown");
    expect(benchmarks.every((b) => b.suite === "share")).toBe(true);
  });

  it("derives a median when only samples are given, and takes direction from the unit", () => {
    const [only, rate] = parseHarnessSummary(
      {
        operations: [
          { name: "a", samples_us: [3, 1, 2, 10] },
          { name: "b", unit: "ops/s", mean: 5000 },
        ],
      },
      "f",
      {},
    );
    expect(only?.estimates).toEqual({ median: 2500 });
    expect(only?.suite).toBe("custom");
    expect(rate).toMatchObject({
      unit: "ops/s",
      direction: "bigger_is_better",
      estimates: { mean: 5000 },
    });
  });

  it("keeps an unknown unit with a note", () => {
    const [b] = parseHarnessSummary({ results: [{ name: "a", unit: "widgets", p50: 3 }] }, "f", {});
    expect(b).toMatchObject({ unit: "widgets", direction: "smaller_is_better" });
    expect(b?.metadata?.["unit_note"]).toBe(
      'unknown unit "widgets": direction assumed smaller_is_better',
    );
  });

  it.each<[string, unknown, string]>([
    [
      "two containers",
      { operations: [], stages: [] },
      'f: ambiguous: both "operations" and "stages" are present',
    ],
    [
      "scenarios and operations",
      { scenarios: {}, operations: [] },
      'f: ambiguous: both "scenarios" and "operations" are present',
    ],
    [
      "no container",
      { foo: 1 },
      "f: missing the operations list (one of operations, stages, results, benchmarks)",
    ],
    ["an empty list", { operations: [] }, "f: /operations: no operations"],
    [
      "a statistic given twice",
      { operations: [{ name: "a", p50: 1, p50_ms: 1, unit: "ms" }] },
      "f: /operations/0/p50_ms: p50 is given twice (also at /operations/0/p50)",
    ],
    [
      "two sample arrays",
      { operations: [{ name: "a", samples_ms: [1], raw_ms: [1] }] },
      "f: /operations/0/raw_ms: samples is given twice (also at /operations/0/samples_ms)",
    ],
    [
      "no unit at all",
      { operations: [{ name: "a", p50: 1 }] },
      'f: /operations/0/p50: value has no unit: add "unit" or a unit suffix to the key (e.g. "p50_ms")',
    ],
    [
      "an unknown unit suffix",
      { operations: [{ name: "a", p50_foo: 1 }] },
      'f: /operations/0/p50_foo: unrecognized unit suffix "_foo" in key',
    ],
    [
      "mixed units",
      { operations: [{ name: "a", p50_ms: 1, p95_bytes: 2 }] },
      'f: /operations/0/p95_bytes: mixes units "ns" and "B" in one operation',
    ],
    [
      "no statistics",
      { operations: [{ name: "a", unit: "ms", note: "x" }] },
      'f: /operations/0: operation "a" has no statistics (p50, p95, p99, mean, median, …) and no samples',
    ],
    [
      "empty samples",
      { operations: [{ name: "a", samples_ms: [] }] },
      'f: /operations/0: operation "a" has an empty samples array',
    ],
    [
      "duplicate names",
      {
        operations: [
          { name: "a", p50_ms: 1 },
          { name: "a", p50_ms: 2 },
        ],
      },
      'f: /operations/1: duplicate benchmark id "a" (also at /operations/0)',
    ],
    [
      "names that disagree",
      { operations: { a: { name: "b", p50_ms: 1 } } },
      'f: /operations/a/name: names disagree: "a" and "b"',
    ],
    [
      "an operation without a name",
      { operations: [{ p50_ms: 1 }] },
      "f: /operations/0: operation has no name (one of name, id, operation, op, stage, label)",
    ],
    [
      "__proto__ as a name",
      { operations: [{ name: "__proto__", p50_ms: 1 }] },
      'f: /operations/0/name: benchmark id "__proto__" is not allowed',
    ],
    [
      "a negative value",
      { operations: [{ name: "a", p50_ms: -1 }] },
      "f: /operations/0/p50_ms: must not be negative (found -1)",
    ],
    [
      "a bad sample",
      { operations: [{ name: "a", samples_ms: [1, "2"] }] },
      "f: /operations/0/samples_ms/1: expected a number, found a string",
    ],
    [
      "a bad sample_kind",
      { sample_kind: "per_call", operations: [{ name: "a", p50_ms: 1 }] },
      "f: /sample_kind: must be one of per_iteration, per_process, unknown",
    ],
    [
      "a nested unit given twice",
      { operations: [{ name: "a", latency_ms: { unit: "s", p50: 1 } }] },
      'f: /operations/0/latency_ms: unit given both as suffix "_ms" and as "unit"',
    ],
    [
      "an operation that is a number",
      { operations: { a: 5 } },
      "f: /operations/a: expected an operation object, found a number",
    ],
  ])("rejects %s", (_name, data, message) => {
    expect(inputErrorOf(() => parseHarnessSummary(data, "f", {}))).toBe(message);
  });
});

describe("parseCustom", () => {
  const GUESS = { guess: guessFormat };

  it("passes a benchgate summary.json through after validating it", async () => {
    const result = parseCustom(await loadJson(`${HAND_MADE}/summary.json`), "summary.json", GUESS);
    expect(result.kind).toBe("summary");
    if (result.kind === "summary") expect(result.summary.benchmarks[0]?.id).toBe("archive/write");
  });

  it("rejects an invalid summary.json with the schema's message", () => {
    const data = { schema_version: 1, side: "base", round: 0, benchmarks: [] };
    expect(inputErrorOf(() => parseCustom(data, "s.json", GUESS))).toBe(
      "s.json: /round: not a valid summary.v1: must be >= 1",
    );
  });

  it.each<[string, unknown, string]>([
    [
      "a hyperfine export",
      { results: [{ command: "x", mean: 1 }] },
      "f: not a custom summary: this looks like hyperfine --export-json output (use: ingest hyperfine)",
    ],
    [
      "gab JSON",
      [{ name: "a", unit: "ms", value: 1 }],
      "f: not a custom summary: this looks like github-action-benchmark custom JSON (use: ingest gab)",
    ],
    [
      "an empty object",
      {},
      'f: not a custom summary: expected a benchgate summary.json ("schema_version") or a harness summary (an object with one of operations, stages, results, benchmarks, scenarios)',
    ],
  ])("rejects %s", (_name, data, message) => {
    expect(inputErrorOf(() => parseCustom(data, "f", GUESS))).toBe(message);
  });
});
