// Rounds of a sharded run (`benchgate run --shard I/N`, then `benchgate merge`). Each shard runs
// on its own machine, so round 3 of shard 1 and round 3 of shard 2 share nothing: not the
// machine, not its neighbours' load, not the moment. What a round shares with every benchmark in
// it (the round shock, which side ran first) is shared only within one shard. So the statistics
// pair and block by (shard, round): each is a block of its own in one round model over all
// benchmarks, whose shock variance, order effect and variance prior are fitted from every block
// of every shard together (docs/statistics.md §13).
//
// A block is a number, so that everything keyed by round (pairing, the round model, sequential
// looks) keys by block without knowing about shards: round r of an unsharded run is block r,
// round r of shard s is s·STRIDE + r. Rounds stay below STRIDE (the summary schema caps them).
import { InputError } from "../errors.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";

/** Above the summary schema's highest round (10,000). */
export const BLOCK_STRIDE = 100_000;

/** The summary schema's cap; a GitHub matrix allows more jobs, few runner pools have them. */
export const MAX_SHARDS = 64;

/** Shard `index` of `count` (1-based). */
export interface ShardTag {
  readonly index: number;
  readonly count: number;
}

/** "2/3" → shard 2 of 3; the error names where the text came from (`--shard`, `shard`). */
export function parseShard(text: string, what: string): ShardTag {
  const match = /^([1-9][0-9]?)\/([1-9][0-9]?)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index > count || count > MAX_SHARDS)
    throw new InputError(
      `${what} must be I/N with 1 ≤ I ≤ N ≤ ${MAX_SHARDS} (e.g. 2/3), got ${JSON.stringify(text.slice(0, 40))}`,
    );
  return { index, count };
}

export function blockOf(round: number, shard: ShardTag | undefined): number {
  return shard === undefined ? round : shard.index * BLOCK_STRIDE + round;
}

/** The round a block was, and its shard's index (undefined for an unsharded run). */
export function blockParts(block: number): { readonly round: number; readonly shard?: number } {
  const shard = Math.floor(block / BLOCK_STRIDE);
  const round = block % BLOCK_STRIDE;
  return shard === 0 ? { round } : { round, shard };
}

/** "round 3", or "round 3 of shard 2": how errors and notes name a block. */
export function describeBlock(block: number): string {
  const { round, shard } = blockParts(block);
  return shard === undefined ? `round ${round}` : `round ${round} of shard ${shard}`;
}

/**
 * The shard count every summary names, undefined when none is sharded. Mixing sharded and
 * unsharded summaries, or shards of different splits, would pair rounds that ran on different
 * machines as if they had run on one: refused.
 */
export function shardCount(
  files: readonly { readonly source: string; readonly summary: BenchSummary }[],
): number | undefined {
  const first = files[0];
  if (first === undefined) return undefined;
  const count = first.summary.shard?.count;
  for (const { source, summary } of files) {
    const other = summary.shard?.count;
    if (other === count) continue;
    throw new InputError(
      other === undefined || count === undefined
        ? `mixes summaries of a sharded run (shard I/N) with unsharded ones (${first.source} ${count === undefined ? "is unsharded" : `is shard ${first.summary.shard?.index}/${count}`})`
        : `is shard ${summary.shard?.index}/${other}, but ${first.source} is shard ${first.summary.shard?.index}/${count}: the summaries come from different splits`,
      { source },
    );
  }
  for (const { source, summary } of files)
    if (summary.shard !== undefined && summary.shard.index > summary.shard.count)
      throw new InputError(
        `says it is shard ${summary.shard.index} of ${summary.shard.count}: the index is above the count`,
        { source, jsonPath: "/shard/index" },
      );
  return count;
}
