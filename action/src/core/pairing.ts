// Turns the summaries of both sides into one series per benchmark: the per-round statistic on
// each side, paired by round number, with the order the two processes ran in that round. The
// rounds of a merged sharded run are paired and keyed by (shard, round): a block each
// (./shard-blocks.ts), since different shards ran on different machines.
import { InputError } from "../errors.ts";
import type { BenchSummary, Benchmark, Environment, Estimate } from "../schemas/summary.gen.ts";
import { median } from "./statistics.ts";
import { blockOf, describeBlock, shardCount } from "./shard-blocks.ts";

export interface SourcedSummary {
  readonly source: string;
  readonly summary: BenchSummary;
}

export type Side = "base" | "head";
export type RoundOrder = "base" | "head" | "unknown";

interface SideRound {
  /** The round's block: its number, or (shard, round) in a sharded run. */
  readonly round: number;
  startedAt: number | undefined;
  readonly benchmarks: Map<string, Benchmark>;
  /** Benchmark id → the file and index it was read from, for errors that must name them. */
  readonly origins: Map<string, { readonly source: string; readonly index: number }>;
}

export interface Observation {
  readonly value: number;
  readonly samples: readonly number[];
  /** The benchmark's own interval for the statistic, when the tool gave one. */
  readonly interval: { lower: number; upper: number } | undefined;
}

export interface BenchmarkSeries {
  readonly id: string;
  readonly suite: string;
  readonly source: Benchmark["source"];
  readonly unit: string;
  readonly direction: Benchmark["direction"];
  readonly statistic: "sample median" | "median" | "p50" | "mean";
  /** What a count counts (instructions, l1_hits, …); undefined for times. */
  readonly metric: string | undefined;
  /** Every run of it says it is a count read exactly (counts.ts decides it). */
  readonly deterministic: boolean;
  /** Shown beside its benchmark's primary metric; never fails the gate by itself. */
  readonly secondary: boolean;
  /** Per side: round number → observation. */
  readonly base: ReadonlyMap<number, Observation>;
  readonly head: ReadonlyMap<number, Observation>;
}

/** A sequential design (`rounds: auto`), as every summary of the run declares it. */
export interface SequentialDesign {
  readonly minRounds: number;
  readonly maxRounds: number;
  /**
   * The run had a time budget: an open benchmark missing from a later round was left out by it
   * (the runner measures every open benchmark otherwise). Names the stop; changes no p-value.
   */
  readonly timeBudgetMs?: number;
}

export interface PairedInput {
  readonly series: readonly BenchmarkSeries[];
  /** The sequential design the runner declared in every summary (`rounds: auto`), if any. */
  readonly sequential: SequentialDesign | undefined;
  /** Round number → which side's process started first. */
  readonly order: ReadonlyMap<number, RoundOrder>;
  readonly environment: { base: Environment | undefined; head: Environment | undefined };
  /**
   * A merged sharded run: the shard count, and each shard's machine as its summaries recorded it
   * (base and head of a shard ran on the same one). Undefined for an unsharded run.
   */
  readonly shards: ShardsSeen | undefined;
}

export interface ShardsSeen {
  readonly count: number;
  /** Shard index → its environment per side, ascending by index. */
  readonly machines: ReadonlyMap<
    number,
    { readonly base: Environment | undefined; readonly head: Environment | undefined }
  >;
}

/** Which shards the summaries came from, and the machine each recorded. */
function shardsSeen(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
): ShardsSeen | undefined {
  const count = shardCount([...base, ...head]);
  if (count === undefined) return undefined;
  const indexes = [...new Set([...base, ...head].map((f) => f.summary.shard?.index ?? 0))].sort(
    (a, b) => a - b,
  );
  const of = (files: readonly SourcedSummary[], index: number): Environment | undefined =>
    environmentOf(files.filter((f) => f.summary.shard?.index === index));
  return {
    count,
    machines: new Map(indexes.map((i) => [i, { base: of(base, i), head: of(head, i) }])),
  };
}

function collectSide(files: readonly SourcedSummary[]): Map<number, SideRound> {
  const rounds = new Map<number, SideRound>();
  const origin = new Map<string, string>();
  for (const { source, summary } of files) {
    const block = blockOf(summary.round, summary.shard);
    let round = rounds.get(block);
    if (round === undefined) {
      round = {
        round: block,
        startedAt: undefined,
        benchmarks: new Map(),
        origins: new Map(),
      };
      rounds.set(block, round);
    }
    if (summary.started_at !== undefined) {
      const t = Date.parse(summary.started_at);
      if (!Number.isNaN(t) && (round.startedAt === undefined || t < round.startedAt))
        round.startedAt = t;
    }
    for (const [index, benchmark] of summary.benchmarks.entries()) {
      const key = `${block}\u0000${benchmark.id}`;
      const first = origin.get(key);
      if (first !== undefined) {
        throw new InputError(
          `benchmark ${JSON.stringify(benchmark.id)} appears twice in ${describeBlock(block)} (also in ${first})`,
          { source },
        );
      }
      origin.set(key, source);
      round.benchmarks.set(benchmark.id, benchmark);
      round.origins.set(benchmark.id, { source, index });
    }
  }
  return rounds;
}

/** The point value of an estimate, whether given as a number or as `{point, lower, upper}`. */
export function estimatePoint(estimate: Estimate | undefined): number | undefined {
  if (estimate === undefined) return undefined;
  return typeof estimate === "number" ? estimate : estimate.point;
}

function interval(estimate: Estimate | undefined): { lower: number; upper: number } | undefined {
  if (estimate === undefined || typeof estimate === "number") return undefined;
  if (estimate.lower === undefined || estimate.upper === undefined) return undefined;
  return { lower: estimate.lower, upper: estimate.upper };
}

type Statistic = BenchmarkSeries["statistic"];

/** The same statistic on both sides and in every round: the first one that all observations have. */
function chooseStatistic(all: readonly Benchmark[]): Statistic | undefined {
  if (all.every((b) => (b.samples?.length ?? 0) > 0)) return "sample median";
  if (all.every((b) => estimatePoint(b.estimates.median) !== undefined)) return "median";
  if (all.every((b) => estimatePoint(b.estimates.p50) !== undefined)) return "p50";
  if (all.every((b) => estimatePoint(b.estimates.mean) !== undefined)) return "mean";
  return undefined;
}

function observe(b: Benchmark, statistic: Statistic): Observation {
  const samples = b.samples ?? [];
  switch (statistic) {
    case "sample median":
      return { value: median(samples), samples, interval: undefined };
    case "median":
      return {
        value: estimatePoint(b.estimates.median) as number,
        samples,
        interval: interval(b.estimates.median),
      };
    case "p50":
      return {
        value: estimatePoint(b.estimates.p50) as number,
        samples,
        interval: interval(b.estimates.p50),
      };
    case "mean":
      return {
        value: estimatePoint(b.estimates.mean) as number,
        samples,
        interval: interval(b.estimates.mean),
      };
  }
}

function environmentOf(files: readonly SourcedSummary[]): Environment | undefined {
  return files.find((f) => f.summary.environment !== undefined)?.summary.environment;
}

interface PairingOptions {
  /** Compare rounds that do not pair as independent runs instead of refusing them. */
  readonly unpaired: boolean;
}

function list(rounds: readonly number[]): string {
  const shown = rounds
    .slice(0, 10)
    .map((r) => describeBlock(r).replace(/^round /, ""))
    .join(", ");
  return rounds.length > 10 ? `${shown} and ${rounds.length - 10} more` : shown;
}

/**
 * Rounds are paired by number; a base round without its head round (or the reverse) would
 * silently turn the comparison into one run per side, which can only ever pass. Refuse it.
 */
function checkRoundsPair(
  base: ReadonlyMap<number, SideRound>,
  head: ReadonlyMap<number, SideRound>,
): void {
  const onlyBase = [...base.keys()].filter((r) => !head.has(r)).sort((a, b) => a - b);
  const onlyHead = [...head.keys()].filter((r) => !base.has(r)).sort((a, b) => a - b);
  if (onlyBase.length === 0 && onlyHead.length === 0) return;
  const parts: string[] = [];
  if (onlyBase.length > 0) parts.push(`base round ${list(onlyBase)} has no head round`);
  if (onlyHead.length > 0) parts.push(`head round ${list(onlyHead)} has no base round`);
  throw new InputError(
    `rounds do not pair: ${parts.join("; ")} (base rounds ${list([...base.keys()].sort((a, b) => a - b))}, head rounds ${list([...head.keys()].sort((a, b) => a - b))}); rounds are paired by their number (--round), or pass --unpaired to compare the runs as independent samples`,
  );
}

/** Every summary of a sequential run names the same design; mixing runs is refused. */
function sequentialDesign(files: readonly SourcedSummary[]): PairedInput["sequential"] {
  const declared = files.map((f) => f.summary.sequential);
  const first = declared[0];
  for (const [i, d] of declared.entries()) {
    const same =
      d === undefined
        ? first === undefined
        : first !== undefined &&
          d.min_rounds === first.min_rounds &&
          d.max_rounds === first.max_rounds;
    if (!same)
      throw new InputError(
        "the summaries do not all come from one sequential run (their `sequential` blocks differ)",
        { source: (files[i] as SourcedSummary).source },
      );
  }
  if (first === undefined) return undefined;
  if (first.min_rounds > first.max_rounds)
    throw new InputError(
      `sequential.min_rounds (${first.min_rounds}) is above max_rounds (${first.max_rounds})`,
      { source: (files[0] as SourcedSummary).source },
    );
  // The budget only names why a benchmark left out of a later round stopped: any file's will do.
  const budget = declared.find((d) => d?.time_budget_ms !== undefined)?.time_budget_ms;
  return {
    minRounds: first.min_rounds,
    maxRounds: first.max_rounds,
    ...(budget === undefined ? {} : { timeBudgetMs: budget }),
  };
}

type Sides = Readonly<Record<Side, ReadonlyMap<number, SideRound>>>;

/**
 * Zero benchmarks in head is a renamed suite, a filter typo or a harness that crashed after
 * writing an empty file: never a pass.
 */
function requireHeadBenchmarks(
  rounds: ReadonlyMap<number, SideRound>,
  head: readonly SourcedSummary[],
): void {
  if ([...rounds.values()].every((r) => r.benchmarks.size === 0))
    throw new InputError(
      `head has no benchmarks (${head.length} file${head.length === 1 ? "" : "s"} read); check the suite names, filters and that the harness ran`,
      head[0] === undefined ? {} : { source: head[0].source },
    );
}

/** Round number → which side's process started first, from the summaries' start times. */
function roundOrders(sides: Sides): Map<number, RoundOrder> {
  const order = new Map<number, RoundOrder>();
  for (const [round, b] of sides.base) {
    const h = sides.head.get(round);
    if (h === undefined) continue;
    const first: RoundOrder =
      b.startedAt === undefined || h.startedAt === undefined || b.startedAt === h.startedAt
        ? "unknown"
        : b.startedAt < h.startedAt
          ? "base"
          : "head";
    order.set(round, first);
  }
  return order;
}

/** Every id in first-seen order (base rounds ascending, then head), so reports are stable. */
function benchmarkIds(sides: Sides): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const side of [sides.base, sides.head]) {
    for (const round of [...side.keys()].sort((a, b) => a - b)) {
      for (const id of side.get(round)?.benchmarks.keys() ?? []) {
        if (!seen.has(id)) {
          seen.add(id);
          ids.push(id);
        }
      }
    }
  }
  return ids;
}

/** One benchmark as one file of one side and round has it. */
interface Found {
  readonly side: Side;
  readonly round: number;
  readonly benchmark: Benchmark;
  readonly source: string;
  readonly index: number;
}

/**
 * One benchmark's observations on both sides. Its unit and direction must agree everywhere,
 * and it is compared on one statistic that every run of it reports.
 */
function seriesOf(id: string, sides: Sides): BenchmarkSeries {
  const found: Found[] = [];
  for (const side of ["base", "head"] as const) {
    for (const [round, r] of sides[side]) {
      const benchmark = r.benchmarks.get(id);
      const origin = r.origins.get(id);
      if (benchmark !== undefined && origin !== undefined)
        found.push({ side, round, benchmark, ...origin });
    }
  }
  const origin = found[0] as Found;
  const first = origin.benchmark;
  for (const f of found) {
    if (f.benchmark.unit !== first.unit || f.benchmark.direction !== first.direction) {
      // Both files are named: either may be the wrong one (a changed harness, a stale summary).
      const field = f.benchmark.unit !== first.unit ? "unit" : "direction";
      throw new InputError(
        `benchmark ${JSON.stringify(id)} is measured in ${f.benchmark.unit} (${f.benchmark.direction}) in ${f.side} ${describeBlock(f.round)}, but in ${first.unit} (${first.direction}) in ${origin.side} ${describeBlock(origin.round)} (${origin.source})`,
        { source: f.source, jsonPath: `/benchmarks/${f.index}/${field}` },
      );
    }
  }
  const statistic = chooseStatistic(found.map((f) => f.benchmark));
  if (statistic === undefined) {
    throw new InputError(
      `benchmark ${JSON.stringify(id)} has no statistic common to all its runs (needs samples, median, p50 or mean everywhere)`,
    );
  }
  const bySide = { base: new Map<number, Observation>(), head: new Map<number, Observation>() };
  for (const f of found) bySide[f.side].set(f.round, observe(f.benchmark, statistic));
  return {
    id,
    suite: first.suite,
    source: first.source,
    unit: first.unit,
    direction: first.direction,
    statistic,
    metric: first.metric,
    deterministic: found.every((f) => f.benchmark.deterministic === true),
    secondary: first.secondary === true,
    base: bySide.base,
    head: bySide.head,
  };
}

/** Pairs base and head summaries by round and benchmark id. */
export function pairSummaries(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
  options: PairingOptions = { unpaired: false },
): PairedInput {
  const shards = shardsSeen(base, head);
  const sides: Sides = { base: collectSide(base), head: collectSide(head) };
  requireHeadBenchmarks(sides.head, head);
  if (!options.unpaired) checkRoundsPair(sides.base, sides.head);
  // Sharded and sequential: each shard ran its own looks (shard-looks.ts).
  const sequential = sequentialDesign([...base, ...head]);
  const order = roundOrders(sides);
  const series = benchmarkIds(sides).map((id) => seriesOf(id, sides));
  return {
    series,
    order,
    sequential,
    environment: { base: environmentOf(base), head: environmentOf(head) },
    shards,
  };
}
