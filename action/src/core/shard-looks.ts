// Sequential rounds of a sharded run (`rounds: auto` with `benchgate run --shard I/N`). A look
// after each round decides which benchmarks run again; shards on separate machines cannot share
// their rounds' results between rounds, so each shard runs its own looks over its own benchmarks
// (its own round model, its own Benjamini–Hochberg at each look, its own time budget). Merged,
// the looks are replayed shard by shard exactly as each shard took them, and one decision is
// made over all: Benjamini–Hochberg over every benchmark's sequential p-value from every shard.
//
// Why the merged p-values stay valid (docs/statistics.md, "Sequential rounds with shards"): a
// benchmark's sequential p-value is p* = min over its looks k of p_k / w_k, where w_k is the
// share of the error rate look k spends and Σ w_k ≤ 1 over the looks up to max rounds. Under
// the null, P(p* ≤ u) ≤ Σ_k P(p_k ≤ w_k·u) ≤ Σ_k w_k·u ≤ u for ANY rule that decides when the
// looks stop, because stopping only removes terms from the sum. So a stop taken on the shard's
// own data (its local Benjamini–Hochberg, its futility rule, its time budget) leaves p* valid,
// and the merge may use p* as it stands. A shard's rounds share its machine, never another
// shard's (shard-blocks.ts), so each shard's p_k is computed from its own rounds, as on the run.
// A suite's shift is tested in every shard that has it; the merged test takes the smallest
// p-value times the number of those shards (Bonferroni), valid whatever their dependence.
//
// The replay itself sees an ordinary unsharded run: rounds are renumbered from the blocks
// (shard·STRIDE + round) to 1…k, and the benchmarks' own series are put back afterwards.
import type { BenchmarkSeries, RoundOrder } from "./pairing.ts";
import type { FinalLook, FinalSuite, StopReason } from "./final-look.ts";
import type { BenchmarkLook, SuiteLook } from "./look-analysis.ts";
import type { Outlook } from "./settle-outlook.ts";
import { BLOCK_STRIDE, blockParts } from "./shard-blocks.ts";

/** What one replay of the looks returns (sequential.ts). */
export interface ShardReplay {
  readonly finals: Map<string, FinalLook>;
  readonly suites: FinalSuite[];
  readonly active: Set<string>;
  readonly settled: Map<string, StopReason>;
  readonly lastRound: number;
  /** The open benchmarks' outlooks at their latest look (settle-outlook.ts); empty unless asked. */
  readonly outlook: ReadonlyMap<string, Outlook>;
}

type Replay = (
  series: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
) => ShardReplay;

/** The shard a series was measured in: 0 for an unsharded run. */
function shardOf(series: BenchmarkSeries): number {
  const block = series.base.keys().next().value ?? series.head.keys().next().value;
  return block === undefined ? 0 : (blockParts(block).shard ?? 0);
}

function shifted<T>(map: ReadonlyMap<number, T>, by: number): Map<number, T> {
  return new Map([...map].map(([block, value]) => [block - by, value]));
}

/** A series as its shard's replay sees it: rounds 1…k instead of blocks. */
function renumbered(series: BenchmarkSeries, offset: number): BenchmarkSeries {
  return { ...series, base: shifted(series.base, offset), head: shifted(series.head, offset) };
}

/** The look as the merged report needs it: the benchmark's own series, rounds as blocks. */
function restored(look: BenchmarkLook, series: BenchmarkSeries, offset: number): BenchmarkLook {
  if (look.kind === "single-run")
    return {
      ...look,
      series,
      rounds: { base: look.rounds.base + offset, head: look.rounds.head + offset },
    };
  return { ...look, series };
}

/** A suite's tests are one per suite and unit. */
export function suiteKey(s: SuiteLook): string {
  return `${s.suite}\u0000${s.unit}`;
}

/** Every shard's test of one suite's shift as one test: Bonferroni over the shards. */
function mergeSuites(perShard: readonly (readonly FinalSuite[])[]): FinalSuite[] {
  const byKey = Map.groupBy(perShard.flat(), (s) => suiteKey(s.look));
  return [...byKey.values()].map((tests) => {
    const n = tests.length;
    // The figures shown (estimate, interval, shock) are those of the shard whose test is the
    // strongest: the one the merged p-value rests on.
    const strongest = tests.reduce((a, b) =>
      Math.min(b.pUp, b.pDown) < Math.min(a.pUp, a.pDown) ? b : a,
    );
    const pUp = Math.min(1, n * Math.min(...tests.map((t) => t.pUp)));
    const pDown = Math.min(1, n * Math.min(...tests.map((t) => t.pDown)));
    return { ...strongest, pUp, pDown };
  });
}

/**
 * Replays the looks of each shard on its own rounds (one replay for an unsharded run, on the
 * data as it is) and joins the results for one decision over all benchmarks.
 */
export function replayByShard(
  series: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
  replay: Replay,
): ShardReplay {
  const groups = Map.groupBy(series, shardOf);
  const only = [...groups.keys()];
  if (only.length <= 1 && (only[0] ?? 0) === 0) return replay(series, order);
  const results = [...groups].map(([shard, list]) => {
    const offset = shard * BLOCK_STRIDE;
    const own = new Map([...order].filter(([block]) => (blockParts(block).shard ?? 0) === shard));
    const result = replay(
      list.map((s) => renumbered(s, offset)),
      shifted(own, offset),
    );
    const original = new Map(list.map((s) => [s.id, s]));
    const finals = new Map(
      [...result.finals].map(([id, f]) => {
        const s = original.get(id) as BenchmarkSeries;
        return [id, { ...f, look: restored(f.look, s, offset) }] as const;
      }),
    );
    return { ...result, finals };
  });
  return {
    finals: new Map(results.flatMap((r) => [...r.finals])),
    suites: mergeSuites(results.map((r) => r.suites)),
    active: new Set(results.flatMap((r) => [...r.active])),
    settled: new Map(results.flatMap((r) => [...r.settled])),
    lastRound: Math.max(...results.map((r) => r.lastRound)),
    outlook: new Map(results.flatMap((r) => [...r.outlook])),
  };
}
