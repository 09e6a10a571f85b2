import { describe, expect, it } from "vitest";
import {
  validateConfig,
  validateHistory,
  validateReport,
  validateSummary,
} from "./validate-document.ts";
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

describe("history.v1", () => {
  const sha = (c: string) => c.repeat(40);
  const history = () => ({
    schema_version: 1,
    series: [
      { suite: "micro", id: "parse/100", unit: "ns", direction: "smaller_is_better" },
      { suite: "cli", id: "help", unit: "ms", direction: "smaller_is_better" },
    ],
    commits: [
      {
        sha: sha("a"),
        date: "2026-11-01T10:00:00Z",
        message: "first",
        author: "A",
        recorded_at: "2026-11-01T10:05:00Z",
        results: [
          [0, 120.5, 118, 123, null],
          [1, 3.2, null, null, 5],
        ],
      },
    ],
  });

  it("accepts earlier measurements of a commit as reruns", () => {
    const h = history();
    (h.commits[0] as Record<string, unknown>)["reruns"] = [
      {
        recorded_at: "2026-11-01T09:00:00Z",
        results: [[0, 119, null, null, null]],
        extras: [[0, "± 2", null]],
      },
    ];
    expect(validateHistory(h, "h.json").commits[0]?.reruns?.[0]?.results).toEqual([
      [0, 119, null, null, null],
    ]);
  });

  it("accepts a well-formed history", () => {
    expect(validateHistory(history(), "h.json").commits[0]?.results[1]).toEqual([
      1,
      3.2,
      null,
      null,
      5,
    ]);
  });

  it("rejects malformed result tuples, unknown series, repeated series and repeated commits", () => {
    const cases: [string, (h: ReturnType<typeof history>) => unknown, RegExp][] = [
      ["short tuple", (h) => ((h.commits[0]!.results as unknown[])[0] = [0, 1]), /fewer than 5/],
      [
        "long tuple",
        (h) => ((h.commits[0]!.results as unknown[])[0] = [0, 1, 1, 1, 1, 1]),
        /more than 5/,
      ],
      [
        "negative value",
        (h) => ((h.commits[0]!.results as unknown[])[0] = [0, -1, null, null, null]),
        />= 0/,
      ],
      [
        "index out of range",
        (h) => ((h.commits[0]!.results as unknown[])[0] = [7, 1, null, null, null]),
        /out of range/,
      ],
      [
        "same series twice",
        (h) => ((h.commits[0]!.results as unknown[])[1] = [0, 1, null, null, null]),
        /twice/,
      ],
      ["duplicate series", (h) => h.series.push({ ...h.series[0]! }), /duplicate series/],
      [
        "rerun with an unknown series",
        (h) =>
          ((h.commits[0] as Record<string, unknown>)["reruns"] = [
            { recorded_at: "2026-11-01T09:00:00Z", results: [[9, 1, null, null, null]] },
          ]),
        /out of range/,
      ],
      [
        "duplicate commit",
        (h) => h.commits.push(structuredClone(h.commits[0]!)),
        /duplicate commit/,
      ],
      [
        "http url",
        (h) => ((h.commits[0] as Record<string, unknown>)["url"] = "javascript:alert(1)"),
        /must match pattern/,
      ],
    ];
    for (const [what, mutate, message] of cases) {
      const h = history();
      mutate(h);
      expect(() => validateHistory(h, "h.json"), what).toThrow(message);
    }
  });
});
