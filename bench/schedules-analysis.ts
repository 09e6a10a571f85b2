// The analysis of a schedules recording (bench/data/schedules-<condition>/): each schedule cut to
// the same wall time, then decided by the product's own compare() — never a copy of its rule, so
// the figures follow whatever statistic the product has. Pure: the recording comes in as values
// (bench/schedules.ts reads the files).
import { compare } from "../action/src/core/compare-summaries.ts";
import type { SourcedSummary } from "../action/src/core/pairing.ts";
import type { CompareSettings } from "../action/src/core/settings.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import { rng } from "../action/test/support/synthetic.ts";
import { gateFailure, mapBenchmarks, scaleBenchmark } from "./aa-data.ts";
import type { ScheduleName } from "./schedules-design.ts";

/** One round of one schedule: both sides' summaries and the wall time its processes took. */
export interface ScheduleRound {
  readonly round: number;
  readonly base: SourcedSummary;
  readonly head: SourcedSummary;
  readonly wallSeconds: number;
}

export type Rounds = readonly ScheduleRound[];

export function totalSeconds(rounds: Rounds): number {
  return rounds.reduce((s, r) => s + r.wallSeconds, 0);
}

/** The first rounds that fit in `seconds` of process time (the whole of the last one included). */
export function withinTime(rounds: Rounds, seconds: number): ScheduleRound[] {
  const out: ScheduleRound[] = [];
  let spent = 0;
  for (const r of rounds) {
    spent += r.wallSeconds;
    if (spent > seconds * (1 + 1e-9)) break;
    out.push(r);
  }
  return out;
}

/**
 * The time both schedules are cut at: the whole rounds of one schedule that fit in the other's
 * total, with the other cut there too (it then falls short by less than one of its own rounds).
 * Of the two ways round, the one where that shortfall is the smaller share: with rounds of 2 minutes
 * against rounds of 20 s, the short rounds are the ones cut, so neither gets a long round more.
 */
export function equalTime(a: Rounds, b: Rounds): number {
  // The shortfall as a share of the time (no rounds at all: nothing to compare, the worst).
  const fit = (x: Rounds, y: Rounds): { t: number; short: number } => {
    const t = totalSeconds(withinTime(x, totalSeconds(y)));
    return { t, short: t > 0 ? (t - totalSeconds(withinTime(y, t))) / t : Infinity };
  };
  const one = fit(a, b);
  const other = fit(b, a);
  return one.short <= other.short ? one.t : other.t;
}

/**
 * The rounds as the two sides' summaries, renumbered 1…k (pairing needs consecutive rounds once
 * some are left out or drawn twice). In an A/A round either side may be called head, so a round
 * whose `swaps` entry is true is relabelled; its timestamps move with the files, so the run order
 * the product reads stays true.
 */
export function sides(
  rounds: Rounds,
  swaps: readonly boolean[] = [],
): { base: SourcedSummary[]; head: SourcedSummary[] } {
  const at = (s: SourcedSummary, round: number): SourcedSummary => ({
    ...s,
    summary: { ...s.summary, round },
  });
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  rounds.forEach((r, i) => {
    const swap = swaps[i] === true;
    base.push(at(swap ? r.head : r.base, i + 1));
    head.push(at(swap ? r.base : r.head, i + 1));
  });
  return { base, head };
}

/** Head slowed by `factor` on `ids`: every sample and time estimate, in every round. */
export function injected(
  head: readonly SourcedSummary[],
  ids: ReadonlySet<string>,
  factor: number,
): SourcedSummary[] {
  return head.map((s) => mapBenchmarks(s, (b) => (ids.has(b.id) ? scaleBenchmark(b, factor) : b)));
}

/** A random label swap per round. */
export function randomSwaps(k: number, random: () => number): boolean[] {
  return Array.from({ length: k }, () => random() < 0.5);
}

/** `n` distinct items drawn at random (partial Fisher–Yates). */
export function draw<T>(items: readonly T[], n: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, n);
}

function baseRanFirst(r: ScheduleRound): boolean {
  return (r.base.summary.started_at ?? "") < (r.head.summary.started_at ?? "");
}

/**
 * Rounds drawn with replacement within each run order (base first, head first), as many of each
 * as were recorded: the product estimates the run-order effect from rounds of both orders, and a
 * resample of one order only would measure that loss instead of the noise.
 */
export function resampleRounds(rounds: Rounds, random: () => number): ScheduleRound[] {
  const strata = [rounds.filter(baseRanFirst), rounds.filter((r) => !baseRanFirst(r))];
  return strata.flatMap((s) => s.map(() => s[Math.floor(random() * s.length)] as ScheduleRound));
}

export function decide(
  rounds: Rounds,
  settings: CompareSettings,
  swaps: readonly boolean[] = [],
  slowdown?: { ids: ReadonlySet<string>; factor: number },
): BenchReport {
  const { base, head } = sides(rounds, swaps);
  return compare(
    base,
    slowdown === undefined ? head : injected(head, slowdown.ids, slowdown.factor),
    { settings },
  );
}

/** The report's median MDE over the benchmarks (NaN when it has none). */
export function medianMde(report: BenchReport): number {
  return report.noise.median_mde ?? Number.NaN;
}

export interface RatioInterval {
  readonly point: number;
  readonly lower: number;
  readonly upper: number;
  readonly resamples: number;
  /** Resamples where either schedule's report gave no median MDE (left out of the interval). */
  readonly undefined: number;
}

/** The q-quantile of sorted values (linear between order statistics). */
function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  return a + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] as number) - a);
}

/**
 * statistic(a) / statistic(b) with a 95 % percentile bootstrap interval: each resample draws both
 * schedules' rounds anew (resampleRounds), independently.
 */
export function bootstrapRatio(
  a: Rounds,
  b: Rounds,
  statistic: (rounds: Rounds) => number,
  resamples: number,
  random: () => number,
): RatioInterval {
  const ratios: number[] = [];
  let missing = 0;
  for (let i = 0; i < resamples; i++) {
    const ratio = statistic(resampleRounds(a, random)) / statistic(resampleRounds(b, random));
    if (Number.isFinite(ratio)) ratios.push(ratio);
    else missing++;
  }
  ratios.sort((x, y) => x - y);
  return {
    point: statistic(a) / statistic(b),
    lower: ratios.length > 0 ? quantile(ratios, 0.025) : Number.NaN,
    upper: ratios.length > 0 ? quantile(ratios, 0.975) : Number.NaN,
    resamples,
    undefined: missing,
  };
}

export interface AaResult {
  readonly replays: number;
  /** Replays whose report fails the gate (a regressed benchmark or suite shift). */
  readonly gateFailures: number;
  readonly share: number;
  /** Benchmarks called regressed, over all replays. */
  readonly falseRegressions: number;
}

/** The recorded rounds first as recorded, then with random label swaps: every one is A/A. */
export function aaReplays(
  rounds: Rounds,
  settings: CompareSettings,
  replays: number,
  random: () => number,
): AaResult {
  let gateFailures = 0;
  let falseRegressions = 0;
  for (let i = 0; i < replays; i++) {
    const report = decide(rounds, settings, i === 0 ? [] : randomSwaps(rounds.length, random));
    if (gateFailure(report).gate) gateFailures++;
    falseRegressions += report.counts.regressed;
  }
  return { replays, gateFailures, share: gateFailures / replays, falseRegressions };
}

export interface InjectionResult {
  readonly factor: number;
  readonly replays: number;
  /** Slowed benchmarks over all replays, and how many of them the report called regressed. */
  readonly slowed: number;
  readonly found: number;
  readonly share: number;
  /** Benchmarks left alone that the report called regressed, over all replays. */
  readonly unslowedFlagged: number;
}

/**
 * Each replay: a random relabelling, a random quarter of the benchmarks (at least one) slowed by
 * `factor` in head, one decision.
 */
export function injectionReplays(
  rounds: Rounds,
  settings: CompareSettings,
  factor: number,
  replays: number,
  random: () => number,
): InjectionResult {
  const ids = rounds[0]?.base.summary.benchmarks.map((b) => b.id) ?? [];
  const n = Math.max(1, Math.round(ids.length / 4));
  let slowed = 0;
  let found = 0;
  let unslowedFlagged = 0;
  for (let i = 0; i < replays; i++) {
    const swaps = randomSwaps(rounds.length, random);
    const chosen = new Set(draw(ids, n, random));
    const report = decide(rounds, settings, swaps, { ids: chosen, factor });
    for (const e of report.benchmarks) {
      if (e.verdict !== "regressed") continue;
      if (chosen.has(e.id)) found++;
      else unslowedFlagged++;
    }
    slowed += n;
  }
  return { factor, replays, slowed, found, share: found / slowed, unslowedFlagged };
}

export interface ScheduleFigures {
  readonly rounds: number;
  readonly seconds: number;
  readonly medianMde: number;
  readonly aa: AaResult;
  readonly injections: readonly InjectionResult[];
}

export interface AnalysisOptions {
  readonly settings: CompareSettings;
  readonly resamples: number;
  readonly replays: number;
  readonly factors: readonly number[];
  readonly seed: number;
}

export interface ScheduleComparison {
  /** The equal wall time both schedules are cut at (equalTime). */
  readonly seconds: number;
  readonly schedules: Readonly<Record<ScheduleName, ScheduleFigures>>;
  /** Median MDE of today's schedule over the new one's, at the equal time. */
  readonly mdeRatio: RatioInterval;
}

/** Both schedules at the same wall time: median MDE and its ratio, A/A replays, injections. */
export function compareSchedules(
  recorded: Readonly<Record<ScheduleName, Rounds>>,
  options: AnalysisOptions,
): ScheduleComparison {
  const { settings } = options;
  const seconds = equalTime(recorded.suite, recorded.pairs);
  const cut = {
    suite: withinTime(recorded.suite, seconds),
    pairs: withinTime(recorded.pairs, seconds),
  };
  const mde = (rounds: Rounds): number => medianMde(decide(rounds, settings));
  const figures = (rounds: Rounds, seed: number): ScheduleFigures => ({
    rounds: rounds.length,
    seconds: totalSeconds(rounds),
    medianMde: mde(rounds),
    aa: aaReplays(rounds, settings, options.replays, rng(seed)),
    injections: options.factors.map((f, i) =>
      injectionReplays(rounds, settings, f, options.replays, rng(seed + 1 + i)),
    ),
  });
  return {
    seconds,
    schedules: { suite: figures(cut.suite, options.seed), pairs: figures(cut.pairs, options.seed) },
    mdeRatio: bootstrapRatio(cut.suite, cut.pairs, mde, options.resamples, rng(options.seed + 100)),
  };
}
