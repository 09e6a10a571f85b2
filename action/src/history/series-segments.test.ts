import { describe, expect, it } from "vitest";
import type { BenchHistory, Commit } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { segmentsOf, seriesCuts } from "./series-segments.ts";

const sha = (i: number): string => (0xc0ffee00 + i).toString(16).padEnd(40, "0");

function commit(i: number): Commit {
  return {
    sha: sha(i),
    date: "2026-01-01T10:00:00Z",
    message: `change ${i}`,
    author: "Ada",
    recorded_at: "2026-01-01T11:00:00Z",
    results: [
      [0, 10, null, null, null],
      [1, 20, null, null, null],
      [2, 30, null, null, null],
    ],
  };
}

function history(breaks: BenchHistory["breaks"]): BenchHistory {
  return validateHistory(
    {
      schema_version: 1,
      series: [
        { suite: "p", id: "parse/small", unit: "ns", direction: "smaller_is_better" },
        { suite: "p", id: "parse/large", unit: "ns", direction: "smaller_is_better" },
        { suite: "e", id: "encode", unit: "ns", direction: "smaller_is_better" },
      ],
      commits: Array.from({ length: 10 }, (_, i) => commit(i)),
      ...(breaks === undefined ? {} : { breaks }),
    },
    "history.json",
  );
}

const mark = (
  benchmark: string,
  at: number,
  reason: string,
): NonNullable<BenchHistory["breaks"]>[number] => ({
  benchmark,
  from: sha(at),
  reason,
  recorded_at: "2026-02-01T00:00:00Z",
});

describe("seriesCuts", () => {
  it("cuts the series each glob matches at its commit's position, in commit order", () => {
    const cuts = seriesCuts(
      history([mark("parse/*", 6, "new harness"), mark("parse/small", 3, "smaller input")]),
    );
    expect(cuts.get(0)).toEqual([
      { index: 3, reasons: ["smaller input"] },
      { index: 6, reasons: ["new harness"] },
    ]);
    expect(cuts.get(1)).toEqual([{ index: 6, reasons: ["new harness"] }]);
    expect(cuts.has(2)).toBe(false);
  });

  it("joins two marks at one commit, says the same reason once, and ignores unrecorded commits", () => {
    const cuts = seriesCuts(
      history([
        mark("parse/*", 4, "new harness"),
        mark("*", 4, "new runner"),
        mark("parse/small", 4, "new harness"),
        mark("encode", 99, "a commit retention dropped"),
      ]),
    );
    expect(cuts.get(0)).toEqual([{ index: 4, reasons: ["new harness", "new runner"] }]);
    expect(cuts.get(2)).toEqual([{ index: 4, reasons: ["new runner"] }]);
    expect(seriesCuts(history(undefined)).size).toBe(0);
  });
});

describe("segmentsOf", () => {
  it("splits [0, length) at the cuts inside it, whatever their order or repeats", () => {
    expect(segmentsOf(10, [])).toEqual([[0, 10]]);
    expect(segmentsOf(10, [6, 3, 6])).toEqual([
      [0, 3],
      [3, 6],
      [6, 10],
    ]);
    expect(segmentsOf(10, [0, 10, 12, -1])).toEqual([[0, 10]]);
    expect(segmentsOf(0, [0])).toEqual([]);
  });
});
