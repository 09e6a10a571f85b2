// Turns the summaries of both sides into one series per benchmark: the per-round statistic on
// each side, paired by round number, with the order the two processes ran in that round.
import { InputError } from "../errors.ts";
import type { BenchSummary, Benchmark, Environment, Estimate } from "../schemas/summary.gen.ts";
import { median } from "./statistics.ts";

export interface SourcedSummary {
  readonly source: string;
  readonly summary: BenchSummary;
}

export type Side = "base" | "head";
export type RoundOrder = "base" | "head" | "unknown";

interface SideRound {
  readonly round: number;
  startedAt: number | undefined;
  readonly benchmarks: Map<string, Benchmark>;
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
  /** Per side: round number → observation. */
  readonly base: ReadonlyMap<number, Observation>;
  readonly head: ReadonlyMap<number, Observation>;
}

export interface PairedInput {
  readonly series: readonly BenchmarkSeries[];
  /** Round number → which side's process started first. */
  readonly order: ReadonlyMap<number, RoundOrder>;
  readonly environment: { base: Environment | undefined; head: Environment | undefined };
}

function collectSide(files: readonly SourcedSummary[]): Map<number, SideRound> {
  const rounds = new Map<number, SideRound>();
  const origin = new Map<string, string>();
  for (const { source, summary } of files) {
    let round = rounds.get(summary.round);
    if (round === undefined) {
      round = { round: summary.round, startedAt: undefined, benchmarks: new Map() };
      rounds.set(summary.round, round);
    }
    if (summary.started_at !== undefined) {
      const t = Date.parse(summary.started_at);
      if (!Number.isNaN(t) && (round.startedAt === undefined || t < round.startedAt))
        round.startedAt = t;
    }
    for (const benchmark of summary.benchmarks) {
      const key = `${summary.round}\u0000${benchmark.id}`;
      const first = origin.get(key);
      if (first !== undefined) {
        throw new InputError(
          `benchmark ${JSON.stringify(benchmark.id)} appears twice in round ${summary.round} (also in ${first})`,
          { source },
        );
      }
      origin.set(key, source);
      round.benchmarks.set(benchmark.id, benchmark);
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

/** Pairs base and head summaries by round and benchmark id. */
export function pairSummaries(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
): PairedInput {
  const sides = { base: collectSide(base), head: collectSide(head) };
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

  // Every id in first-seen order (base rounds ascending, then head), so reports are stable.
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

  const series: BenchmarkSeries[] = [];
  for (const id of ids) {
    const found: { side: Side; round: number; benchmark: Benchmark }[] = [];
    for (const side of ["base", "head"] as const) {
      for (const [round, r] of sides[side]) {
        const benchmark = r.benchmarks.get(id);
        if (benchmark !== undefined) found.push({ side, round, benchmark });
      }
    }
    const first = found[0]?.benchmark as Benchmark;
    for (const f of found) {
      if (f.benchmark.unit !== first.unit || f.benchmark.direction !== first.direction) {
        throw new InputError(
          `benchmark ${JSON.stringify(id)} is measured in ${first.unit} (${first.direction}) in one file and ${f.benchmark.unit} (${f.benchmark.direction}) in ${f.side} round ${f.round}`,
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
    series.push({
      id,
      suite: first.suite,
      source: first.source,
      unit: first.unit,
      direction: first.direction,
      statistic,
      base: bySide.base,
      head: bySide.head,
    });
  }
  return { series, order, environment: { base: environmentOf(base), head: environmentOf(head) } };
}
