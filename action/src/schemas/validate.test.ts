import { describe, expect, it } from "vitest";
import { validateConfig, validateReport, validateSummary } from "./validate.ts";
import { InputError } from "../errors.ts";

const summary = (suite: string) => ({
  schema_version: 1,
  side: "base",
  round: 1,
  benchmarks: [
    {
      id: "a",
      suite,
      source: "custom",
      unit: "ns",
      direction: "smaller_is_better",
      estimates: { median: 1 },
    },
  ],
});

describe("precompiled validators", () => {
  it("count string lengths in code points, as JSON Schema does", () => {
    expect(() => validateSummary(summary("🦀".repeat(256)), "s.json")).not.toThrow();
    expect(() => validateSummary(summary("🦀".repeat(257)), "s.json")).toThrow(
      /must NOT have more than 256 characters/,
    );
  });

  it("name the file and JSON path of the first problem", () => {
    try {
      validateSummary({ ...summary("s"), round: 0 }, "s.json");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).describe()).toBe(
        "s.json: /round: not a valid summary.v1: must be >= 1",
      );
    }
  });

  it("validate reports and configs", () => {
    expect(() => validateReport({}, "r.json")).toThrow(
      /not a valid report\.v1: must have required property/,
    );
    expect(
      validateConfig({ version: 1, statistics: { q: 0.1, "fail-threshold": "5%" } }, "c.yml")
        .version,
    ).toBe(1);
    expect(() =>
      validateConfig({ version: 1, statistics: { "fail-treshold": 0.1 } }, "c.yml"),
    ).toThrow(/not a valid config\.v1: unexpected property "fail-treshold"/);
  });
});
