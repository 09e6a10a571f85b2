import { describe, expect, it } from "vitest";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import type { SourcedSummary } from "./pairing.ts";
import { planNextRound } from "./sequential.ts";
import { resolveSettings } from "./settings.ts";

const settings = resolveSettings();
const design = { minRounds: 3, maxRounds: 15 };

/** Both sides' summaries: every benchmark at 1000 ns on base, head at base·(1 + change). */
function sides(changes: ReadonlyMap<string, readonly number[]>): {
  base: SourcedSummary[];
  head: SourcedSummary[];
} {
  const rounds = Math.max(...[...changes.values()].map((c) => c.length));
  const side = (name: "base" | "head"): SourcedSummary[] =>
    Array.from({ length: rounds }, (_, r) => {
      const summary: BenchSummary = {
        schema_version: 1,
        side: name,
        round: r + 1,
        sequential: { min_rounds: design.minRounds, max_rounds: design.maxRounds },
        benchmarks: [...changes].map(([id, c]) => ({
          id,
          suite: "micro",
          source: "criterion",
          unit: "ns",
          direction: "smaller_is_better",
          estimates: { median: name === "base" ? 1000 : 1000 * (1 + (c[r] as number)) },
        })),
      };
      return { source: `${name}-${r + 1}`, summary };
    });
  return { base: side("base"), head: side("head") };
}

// Twelve quiet benchmarks (±0.4 % a round) carry the round model; the rounds of the others are
// those a hashbrown run on a 2-vCPU VM recorded: a lookup 17 % slower in four rounds of six,
// the other two 5 % and 44 % (one base and one head process far off).
const quiet = (i: number): number[] =>
  [0.002, -0.003, 0.004, -0.001, 0.003, -0.004].map((x, r) => ((r + i) % 2 === 0 ? x : -x));
const changes = new Map<string, readonly number[]>([
  ...Array.from({ length: 12 }, (_, i) => [`quiet/${i}`, quiet(i)] as const),
  ["slower", [0.053, 0.173, 0.184, 0.166, 0.151, 0.444]],
  ["one-far", [0.003, 0.218, -0.004, 0.002, -0.001, 0.005]],
  ["erratic", [0.3, -0.25, 0.2, -0.3, 0.25, -0.2]],
]);

describe("the outlook of an open benchmark", () => {
  const s = sides(changes);
  const next = planNextRound(s.base, s.head, settings, design);
  const outlook = (id: string) => next.outlook?.get(id);

  it("is given for every open benchmark and only for those", () => {
    expect(next.active.has("slower")).toBe(true);
    expect([...(next.outlook?.keys() ?? [])].sort()).toEqual([...next.active].sort());
  });

  it("projects a slowdown that two far rounds hide from the mean to be settled by the median", () => {
    // The mean (+19.6 %, SD 13 %) cannot settle it; the median of its rounds (+17 %, spread of
    // the MAD about 3 %) can once the median judges, from 12 rounds, within max rounds.
    const o = outlook("slower");
    expect(o).toMatchObject({ rounds: 6, couldFail: true });
    expect(o?.settleAt).toBeGreaterThanOrEqual(12);
    expect(o?.settleAt).toBeLessThanOrEqual(15);
  });

  it("projects one far round on an unchanged benchmark to be ruled out, never to fail", () => {
    // Its mean (+3.7 %) is above the 3 % fail threshold; the median that judges 12 rounds is not.
    expect(next.active.has("one-far")).toBe(true);
    const o = outlook("one-far");
    expect(o?.couldFail).toBe(false);
    expect(o?.settleAt).toBeLessThanOrEqual(12);
  });

  it("finds no number of rounds that settles a benchmark whose rounds spread by ±25 %", () => {
    expect(outlook("erratic")).toMatchObject({ rounds: 6, settleAt: undefined });
  });

  it("without the median (robust off) projects the mean", () => {
    const again = planNextRound(s.base, s.head, { ...settings, robust: false }, design);
    // The mean of one-far's six rounds (+3.7 %, SD 9 %) judges it: no number of rounds would
    // settle it, and it stops now.
    expect(again.settled.get("one-far")).toBe("futile");
    expect(again.outlook?.get("slower")).toMatchObject({ rounds: 6, couldFail: true });
  });
});
