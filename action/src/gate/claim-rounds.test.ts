import { describe, expect, it } from "vitest";
import { parseClaims } from "../budgets/parse-claim.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { NextRound } from "../core/sequential.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { keepClaimsOpen } from "./claim-rounds.ts";

/** One side's rounds: `fast` and `slow` times (ns) per round, and one unrelated benchmark. */
function side(name: "base" | "head", fast: number[], slow: number[]): SourcedSummary[] {
  return fast.map((f, i) => {
    const summary: BenchSummary = {
      schema_version: 1,
      side: name,
      round: i + 1,
      benchmarks: [
        ["fast", f],
        ["slow", slow[i] ?? 0],
        ["other", 100],
      ].map(([id, v]) => ({
        id: id as string,
        suite: "micro",
        source: "criterion",
        unit: "ns",
        direction: "smaller_is_better",
        estimates: { median: v as number },
      })),
    };
    return { source: `${name}-${i + 1}`, summary };
  });
}

const NEXT: NextRound = {
  active: new Set(["other"]),
  settled: new Map(),
  line: "after round 3: 1 of 3 still open",
};
const claims = parseClaims([{ faster: "fast", than: "slow", by: "≥ 4x" }]);

describe("keepClaimsOpen", () => {
  // Ratios 3×, 6×, 4.5× over three rounds: an interval that straddles 4×.
  const straddling = {
    base: side("base", [10, 10, 10], [40, 40, 40]),
    head: side("head", [10, 10, 10], [30, 60, 45]),
  };

  it("keeps both benchmarks of an undecided claim in the next round, and says so", () => {
    const next = keepClaimsOpen(NEXT, claims, straddling, { last: 3, max: 8, confidence: 0.95 });
    expect([...next.active].sort()).toEqual(["fast", "other", "slow"]);
    expect(next.line).toBe("after round 3: 1 of 3 still open; 2 more kept for 1 undecided claim");
  });

  it("leaves the plan alone at max rounds, for a decided claim, and without claims", () => {
    expect(keepClaimsOpen(NEXT, claims, straddling, { last: 8, max: 8, confidence: 0.95 })).toBe(
      NEXT,
    );
    const clear = { ...straddling, head: side("head", [10, 10, 10], [80, 81, 79]) };
    expect(keepClaimsOpen(NEXT, claims, clear, { last: 3, max: 8, confidence: 0.95 })).toBe(NEXT);
    expect(keepClaimsOpen(NEXT, [], straddling, { last: 3, max: 8, confidence: 0.95 })).toBe(NEXT);
  });
});
