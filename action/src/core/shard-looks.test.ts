// Sequential rounds with shards: each shard runs its own looks on its own machine, and the merge
// replays them shard by shard and decides once over all (shard-looks.ts).
import { describe, expect, it } from "vitest";
import { compare } from "./compare-summaries.ts";
import { resolveSettings } from "./settings.ts";
import type { SourcedSummary } from "./pairing.ts";
import type { SequentialDesign } from "./sequential.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";
import { simulateSequential } from "../../test/support/sequential-run.ts";

type Files = { base: SourcedSummary[]; head: SourcedSummary[] };

/** One shard's data: its own ids, tagged with its shard, declaring the design. */
function shardData(
  index: number,
  count: number,
  d: SequentialDesign,
  spec: { benchmarks: number; noise: number; seed: number; scale?: (id: string) => number },
): Files {
  const { benchmarks, noise, seed } = spec;
  const s = syntheticSuite({
    benchmarks,
    noise,
    seed,
    rounds: d.maxRounds,
    samples: 10,
    roundShock: 0.02,
  });
  const tag = (files: readonly SourcedSummary[]): SourcedSummary[] =>
    files.map((f) => ({
      source: `shard-${index}/${f.source}`,
      summary: {
        ...f.summary,
        shard: { index, count },
        sequential: { min_rounds: d.minRounds, max_rounds: d.maxRounds },
        benchmarks: f.summary.benchmarks.map((b) => ({
          ...b,
          id: b.id.replace("group/", `shard-${index}/`),
        })),
      },
    }));
  const head = tag(s.head);
  return {
    base: tag(s.base),
    head: spec.scale === undefined ? head : scaleSamples(head, (_, id) => spec.scale!(id)),
  };
}

/** What `run --shard` does on one machine: its own looks, from min on, on its own rounds. */
const runShard = simulateSequential;

describe("sequential rounds with shards", () => {
  const d: SequentialDesign = { minRounds: 3, maxRounds: 10 };
  const settings = resolveSettings();

  it("replays each shard's own looks and decides over all of them", () => {
    // Shard 1: quiet, one benchmark ×2 slower; shard 2: noisier, nothing changed. They stop
    // after different numbers of rounds, as separate machines would.
    const one = runShard(
      shardData(1, 2, d, {
        benchmarks: 8,
        noise: 0.004,
        seed: 11,
        scale: (id) => (id === "shard-1/bench-3" ? 2 : 1),
      }),
      d,
      settings,
    );
    const two = runShard(shardData(2, 2, d, { benchmarks: 8, noise: 0.05, seed: 12 }), d, settings);
    expect(one.head.length).not.toBe(two.head.length);
    const report = compare([...one.base, ...two.base], [...one.head, ...two.head], { settings });
    expect(report.benchmarks).toHaveLength(16);
    expect(report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
      "shard-1/bench-3",
    ]);
    expect(report.verdict).toBe("fail");
    // Each benchmark's stop is the one its own shard took on the run.
    const settledOnRun = new Map([...one.settled, ...two.settled]);
    for (const e of report.benchmarks) {
      const onRun = settledOnRun.get(e.id);
      if (onRun !== undefined) expect(e.stopped?.reason, e.id).toBe(onRun);
    }
    // Rounds are each shard's own: shard 2's benchmarks may run past shard 1's last round.
    const lastOf = (files: Files): number => Math.max(...files.head.map((f) => f.summary.round));
    for (const e of report.benchmarks)
      expect(e.rounds).toBeLessThanOrEqual(e.id.startsWith("shard-1/") ? lastOf(one) : lastOf(two));
  });

  it("keeps the false-alarm rate of A/A sharded runs at q with the thresholds at zero", () => {
    // With the noise floor and fail threshold at 0 every call rests on the p-values alone, so
    // runs that flag anything measure how valid the merged sequential p-values are. Under A/A
    // every hypothesis is null: BH's FDR is then the chance of any false alarm, at most q.
    const strict = resolveSettings({ noiseFloor: 0, failThreshold: 0 });
    const runs = 60;
    let alarms = 0;
    const ps: number[] = [];
    for (let i = 0; i < runs; i++) {
      const shards = [1, 2, 3].map((index) =>
        runShard(
          shardData(index, 3, d, {
            benchmarks: 6,
            noise: 0.01 * index,
            seed: 1000 + 7 * i + index,
          }),
          d,
          strict,
        ),
      );
      const report = compare(
        shards.flatMap((s) => s.base),
        shards.flatMap((s) => s.head),
        { settings: strict },
      );
      if (report.benchmarks.some((e) => e.verdict === "regressed")) alarms++;
      for (const e of report.benchmarks) if (typeof e.p === "number") ps.push(e.p);
    }
    // At most q = 5 % of runs: 3 of 60 expected. 9 or more has a chance below 0.5 % at a true
    // rate of 5 %.
    expect(alarms).toBeLessThan(9);
    // The sharper check: the merged sequential p-values themselves are valid, P(p* ≤ u) ≤ u.
    // Spent over the looks they are conservative (3.9 %, 7.1 % and 12.4 % at u = 5, 10, 20 %
    // here); the smallest p over the looks without the spending is not (8.0 %, 13.5 %, 24.4 %:
    // this check fails on it). 1,080 p-values, partly correlated within a run: the 1.3·u limit
    // leaves room for chance.
    expect(ps).toHaveLength(runs * 18);
    for (const u of [0.05, 0.1, 0.2])
      expect(ps.filter((p) => p <= u).length / ps.length).toBeLessThan(u * 1.3);
  });
});
