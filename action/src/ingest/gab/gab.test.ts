import { describe, expect, it } from "vitest";
import { parseGab, parseRange } from "./gab.ts";
import { guessFormat } from "../format-hint.ts";
import { HAND_MADE, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";

const SUITE = { suite: "gab", guess: guessFormat };

describe("parseGab", () => {
  it("takes direction and ns normalization from the unit (customSmallerIsBetter file)", async () => {
    const benchmarks = parseGab(
      await loadJson(`${HAND_MADE}/gab-smaller.json`),
      "smaller.json",
      SUITE,
    );
    const byId = new Map(benchmarks.map((b) => [b.id, b]));
    expect(byId.get("fib 20")).toMatchObject({
      source: "github-action-benchmark",
      unit: "ns",
      direction: "smaller_is_better",
      estimates: { median: 27100, std_dev: 1640 },
      metadata: { range: "± 1640", extra: "criterion bencher output", original_unit: "ns/iter" },
    });
    expect(byId.get("sum_vec/1000")?.estimates).toEqual({ median: 165, std_dev: 31 });
    // A percentage range is kept as text, not turned into a std_dev.
    expect(byId.get("startup")?.estimates).toEqual({ median: 12.5e6 });
    expect(byId.get("startup")?.metadata?.["range"]).toBe("± 0.5%");
    expect(byId.get("peak_rss")).toMatchObject({
      unit: "B",
      direction: "smaller_is_better",
      estimates: { median: 42 * 2 ** 20 },
    });
    expect(byId.get("instructions")?.unit).toBe("instructions");
  });

  it("marks rates bigger-is-better and notes unknown units (customBiggerIsBetter file)", async () => {
    const benchmarks = parseGab(
      await loadJson(`${HAND_MADE}/gab-bigger.json`),
      "bigger.json",
      SUITE,
    );
    expect(benchmarks.map((b) => [b.id, b.unit, b.direction])).toEqual([
      ["parse throughput", "ops/s", "bigger_is_better"],
      ["http", "req/s", "bigger_is_better"],
      ["copy", "B/s", "bigger_is_better"],
      ["score", "points", "smaller_is_better"],
    ]);
    expect(benchmarks[0]?.estimates).toEqual({ median: 125000, std_dev: 3000 });
    expect(benchmarks[2]?.estimates.median).toBe(850e6);
    expect(benchmarks[3]?.metadata?.["unit_note"]).toBe(
      'unknown unit "points": direction assumed smaller_is_better',
    );
  });

  it.each([
    ["± 300", 300],
    ["±300", 300],
    ["+/- 31", 31],
    ["+- 2.5", 2.5],
    ["± 1e3", 1000],
    ["± 5%", undefined],
    ["[1, 2]", undefined],
    ["", undefined],
  ])("parseRange(%j) = %s", (range, expected) => {
    expect(parseRange(range)).toBe(expected);
  });

  it.each<[string, unknown, string]>([
    [
      "an object",
      { name: "x" },
      "f: not github-action-benchmark custom JSON: expected an array of {name, unit, value}",
    ],
    [
      "a hyperfine export",
      { results: [{ command: "x" }] },
      "f: not github-action-benchmark custom JSON: expected an array of {name, unit, value} (it looks like hyperfine --export-json output (use: ingest hyperfine))",
    ],
    ["an empty list", [], "f: no benchmarks"],
    ["a missing unit", [{ name: "a", value: 1 }], 'f: /0: missing "unit"'],
    [
      "a negative value",
      [{ name: "a", unit: "ms", value: -1 }],
      "f: /0/value: must not be negative (found -1)",
    ],
    [
      "a string value",
      [{ name: "a", unit: "ms", value: "1" }],
      "f: /0/value: expected a number, found a string",
    ],
    [
      "a duplicate name",
      [
        { name: "a", unit: "ms", value: 1 },
        { name: "a", unit: "ms", value: 2 },
      ],
      'f: /1/name: duplicate benchmark id "a" (also at /0/name)',
    ],
    [
      "__proto__ as name",
      [{ name: "__proto__", unit: "ms", value: 1 }],
      'f: /0/name: benchmark id "__proto__" is not allowed',
    ],
    ["an empty unit", [{ name: "a", unit: " ", value: 1 }], "f: /0/unit: unit is empty"],
    [
      "an overflow after conversion",
      [{ name: "a", unit: "h", value: 1e295 }],
      "f: /0/value: number is out of range after unit conversion",
    ],
  ])("rejects %s", (_name, data, message) => {
    expect(inputErrorOf(() => parseGab(data, "f", SUITE))).toBe(message);
  });
});
