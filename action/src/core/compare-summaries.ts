// compare(): summaries of both sides → report.json. Pure: no I/O; the caller validates inputs
// and writes outputs. A regression is a verdict in the report, never an exception.
import { formatChange, formatPercent } from "../number-text.ts";
import type { BenchReport, Entry, SideStats, SuiteResult } from "../schemas/report.gen.ts";
import type { CompareSettings } from "./settings.ts";
import {
  decide,
  singleRunFloor,
  type Decision,
  type SuiteAnalysis,
  type SuiteDecision,
} from "./decision.ts";
import { checkEnvironments, type EnvironmentCheck } from "./environment.ts";
import { blockParts } from "./shard-blocks.ts";
import { checkShardEnvironments } from "./shard-environments.ts";
import {
  pairSummaries,
  type Observation,
  type PairedInput,
  type SourcedSummary,
} from "./pairing.ts";
import { finalLooks, oneLook, type SequentialDesign } from "./sequential.ts";
import { verdictOf } from "./gate-verdict.ts";
import { analyseUnpaired } from "./unpaired.ts";
import {
  analyseHistoryNoise,
  noiseKey,
  type HistoryNoise,
  type HistoryNoiseLook,
} from "./history-noise.ts";
import { analyseBaseHeadBase } from "./base-head-base.ts";
import { median } from "./statistics.ts";
import { contentionOf, type Contention } from "./contention.ts";
import {
  nonDeterministicNote,
  settleCounts,
  type CountThresholds,
  type Determinism,
} from "./counts.ts";

export const METHOD = {
  rounds:
    "paired rounds; log ratio of per-round medians; rounds as blocks (round shocks and run order " +
    "estimated across each suite, their uncertainty in every interval); from 12 rounds the " +
    "median of the rounds (MAD-based error, sign test under its p-value), else the mean; empirical-Bayes variance, " +
    "never below own, with its own df; one-sided t-test against the noise floor; Benjamini-Hochberg " +
    "over benchmarks and suite shifts",
  "single-run":
    "one run per side (unverified); log ratio of medians; within-run order-statistic interval; " +
    "fails only above the unverified threshold",
  history:
    "one run per side; log ratio of medians; run-to-run noise of each benchmark from the " +
    "default branch's history on this runner (records between change points), moderated across " +
    "the suite, never below own, scaled up when this job spreads wider; one-sided t-test against " +
    "the noise floor, which must also pass under a Student-t tail fitted to the suite's records; " +
    "Benjamini-Hochberg over benchmarks",
  aba:
    "base, head, base in one job; log ratio of head to the mean of the two base runs; own noise " +
    "from the base runs (empirical-Bayes moderated, never below the suite's), each benchmark " +
    "tested against the suite's centre and the suite's common move against the runs' shock; " +
    "one-sided t-tests against the noise floor; Benjamini-Hochberg over benchmarks and the shift",
  unpaired:
    "unpaired runs (independent samples); difference of mean log medians; pooled empirical-Bayes " +
    "variance, never below own; one-sided t-test against the noise floor; Benjamini-Hochberg",
  sequential:
    "; sequential rounds: Pocock-type error spending over the looks, futility by conditional power",
} as const;

const SPENDING = "Lan-DeMets Pocock-type A(t)=ln(1+(e-1)t), Bonferroni over looks";

interface CompareOptions {
  readonly settings: CompareSettings;
  readonly generator?: { name: string; version: string };
  /** ISO timestamp to stamp the report with (the caller owns the clock). */
  readonly now?: string;
  /** Suites with their own thresholds for deterministic counts (else the settings' ones). */
  readonly countThresholds?: ReadonlyMap<string, CountThresholds>;
  /**
   * Where one run per side gets its noise from: the default branch's history on this runner, or
   * a second base run of the same job (base, head, base). Ignored by paired rounds, which
   * measure their own.
   */
  readonly noise?: NoiseSource;
}

export type NoiseSource = HistoryNoise | { readonly kind: "aba" };

function sideStats(observations: ReadonlyMap<number, Observation>): SideStats | null {
  if (observations.size === 0) return null;
  const rounds = [...observations.keys()].sort((a, b) => a - b);
  const perRound = rounds.map((r) => (observations.get(r) as Observation).value);
  return {
    value: median(perRound),
    per_round: perRound,
    samples: rounds.map((r) => (observations.get(r) as Observation).samples.length),
  };
}

/** Slowdown on the log scale → relative change of the metric itself (head/base − 1). */
function toChange(slowdown: number, direction: Entry["direction"]): number {
  return Math.expm1(direction === "smaller_is_better" ? slowdown : -slowdown);
}

function finiteOrNull(x: number | undefined): number | null {
  return x === undefined || !Number.isFinite(x) ? null : x;
}

function determinismEntry(d: Determinism): NonNullable<Entry["determinism"]> {
  // An infinite spread (a count that was 0 in some rounds only) is reported as 1e300.
  const side = (x: number | undefined): number | null =>
    x === undefined ? null : Math.min(x, 1e300);
  return {
    status: d.status,
    spread: { base: side(d.spread.base), head: side(d.spread.head) },
    threshold: d.threshold,
    noise_floor: d.noiseFloor,
  };
}

function toEntry(d: Decision, determinism: Determinism | undefined): Entry {
  const s = d.series;
  const ci =
    d.interval === undefined
      ? null
      : ([toChange(d.interval[0], s.direction), toChange(d.interval[1], s.direction)].sort(
          (a, b) => a - b,
        ) as [number, number]);
  const notes = [...d.notes];
  if (s.statistic !== "sample median") notes.push(`compared on the reported ${s.statistic}`);
  return {
    id: s.id,
    suite: s.suite,
    source: s.source,
    unit: s.unit,
    direction: s.direction,
    ...(s.metric === undefined ? {} : { metric: s.metric }),
    ...(s.secondary ? { secondary: true } : {}),
    ...(determinism === undefined ? {} : { determinism: determinismEntry(determinism) }),
    verdict: d.verdict,
    base: sideStats(s.base),
    head: sideStats(s.head),
    change: d.estimate === undefined ? null : toChange(d.estimate, s.direction),
    ci,
    p: finiteOrNull(d.p),
    q: finiteOrNull(d.q),
    rounds: d.rounds,
    mde: d.mde === undefined ? null : finiteOrNull(Math.expm1(d.mde)),
    sd: { own: finiteOrNull(d.sd.own), used: finiteOrNull(d.sd.used), df: finiteOrNull(d.sd.df) },
    unverified: d.unverified,
    ...(d.stop === undefined
      ? {}
      : { stopped: { reason: d.stop.reason, after_round: d.stop.afterRound } }),
    notes: notes.slice(0, 32),
  };
}

function toSuite(s: SuiteDecision, unpaired: boolean): SuiteResult {
  const l = s.look;
  const shift = s.shift;
  return {
    suite: l.suite,
    unit: l.unit,
    benchmarks: l.benchmarks,
    model: unpaired ? "unpaired" : l.model,
    estimated_rounds: l.estimatedRounds,
    order_effect: finiteOrNull(l.orderEffect),
    round_sd: finiteOrNull(l.shockSd),
    round_df: finiteOrNull(l.shockDf),
    shift:
      shift === undefined
        ? null
        : {
            change: Math.expm1(shift.estimate),
            ci: [Math.expm1(shift.interval[0]), Math.expm1(shift.interval[1])],
            p: Math.min(1, shift.p),
            q: Math.min(1, shift.q),
            verdict: shift.verdict,
          },
  };
}

/** Every benchmark has at most one run per side: the case the history's noise is for. */
function oneRunPerSide(paired: PairedInput): boolean {
  return paired.series.every((s) => s.base.size <= 1 && s.head.size <= 1);
}

interface Analysed extends SuiteAnalysis {
  /** Set when the history supplied the noise. */
  readonly history?: HistoryNoiseLook;
  /** Why a history that was given could not be used, when the reason lies in its values. */
  readonly historySetAside?: string;
}

/** |x| below this has a finite exp(x): a change the report can state as a number. */
const LARGEST_LOG_CHANGE = 700;

/**
 * Whether every number a decision states can be written as a finite change. A history whose
 * records lie as far apart as 1e-300 and 1e300 passes its schema yet gives a variance whose
 * interval has no finite bound: that history cannot decide, and the caller says so.
 */
function presentable(decisions: readonly Decision[]): boolean {
  const ok = (x: number | undefined): boolean =>
    x === undefined || (Number.isFinite(x) && Math.abs(x) < LARGEST_LOG_CHANGE);
  return decisions.every(
    (d) =>
      ok(d.estimate) &&
      ok(d.mde) &&
      ok(d.interval?.[0]) &&
      ok(d.interval?.[1]) &&
      ok(d.sd.used) &&
      (d.p === undefined || Number.isFinite(d.p)),
  );
}

function analyse(
  paired: PairedInput,
  settings: CompareSettings,
  noise: NoiseSource | undefined,
): Analysed {
  if (noise?.kind === "aba") {
    const { finals, suites } = oneLook(analyseBaseHeadBase(paired.series, settings));
    const decided = decide(paired.series, finals, suites, settings);
    return { ...decided, mode: decided.mode === "rounds" ? "aba" : decided.mode };
  }
  if (noise?.kind === "history" && !settings.unpaired && oneRunPerSide(paired)) {
    const history = analyseHistoryNoise(paired.series, noise, settings);
    const { finals, suites } = oneLook(history);
    const decided = decide(paired.series, finals, suites, settings);
    if (!presentable(decided.decisions))
      return {
        ...analyse(paired, settings, undefined),
        historySetAside:
          "the history was set aside: its records lie so far apart that the noise estimate has no finite interval",
      };
    return {
      ...decided,
      decisions: decided.decisions.map((d) => singleRunFloor(d, settings)),
      mode: decided.mode === "rounds" ? "history" : decided.mode,
      history,
    };
  }
  if (settings.unpaired) {
    const { finals, suites } = oneLook(analyseUnpaired(paired.series, settings));
    return decide(paired.series, finals, suites, settings);
  }
  const design: SequentialDesign | undefined = paired.sequential;
  const { finals, suites } = finalLooks(paired.series, paired.order, settings, design);
  return decide(paired.series, finals, suites, settings);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

type Counts = BenchReport["counts"];

function countVerdicts(entries: readonly Entry[]): Counts {
  const counts = {
    total: entries.length,
    regressed: 0,
    improved: 0,
    unchanged: 0,
    inconclusive: 0,
    new: 0,
    missing: 0,
  };
  // A secondary count (cache hits beside the instructions) is shown, never counted.
  for (const e of entries) if (e.secondary !== true) counts[e.verdict]++;
  counts.total -= entries.filter((e) => e.secondary === true).length;
  return counts;
}

/** Decided on the count threshold, not by the statistics. */
function isExact(e: Entry): boolean {
  return e.determinism !== undefined && e.determinism.status !== "non-deterministic";
}

/** What the report's reader is told first: every finding that bears on the verdict, in order. */
function reasonsFor(
  entries: readonly Entry[],
  counts: Counts,
  shifted: readonly SuiteResult[],
  mode: SuiteAnalysis["mode"],
  env: EnvironmentCheck,
  settings: CompareSettings,
): string[] {
  const reasons: string[] = [];
  for (const s of shifted) {
    const shift = s.shift as NonNullable<SuiteResult["shift"]>;
    reasons.push(
      `suite ${s.suite}: a suite-wide regression of ${formatChange(shift.change)} (every benchmark, CI ${formatChange(shift.ci[0])} to ${formatChange(shift.ci[1])})`,
    );
  }
  if (counts.missing > 0)
    reasons.push(
      `${plural(counts.missing, "benchmark")} of base missing in head${settings.missing === "warn" ? " (missing: warn)" : ""}`,
    );
  const exact = entries.filter(
    (e) => e.verdict === "regressed" && e.secondary !== true && isExact(e),
  );
  const timed = counts.regressed - exact.length;
  if (timed > 0)
    reasons.push(
      `${plural(timed, "benchmark")} regressed by at least ${formatPercent(settings.failThreshold)}`,
    );
  if (exact.length > 0) {
    const least = Math.min(...exact.map((e) => e.determinism?.threshold ?? 0));
    reasons.push(
      `${plural(exact.length, "deterministic count")} regressed by at least ${formatPercent(least)}`,
    );
  }
  const unsteady = entries.filter(
    (e) => e.secondary !== true && e.determinism?.status === "non-deterministic",
  ).length;
  const undecided = counts.inconclusive - unsteady;
  if (undecided > 0) {
    reasons.push(
      `${plural(undecided, "benchmark")} inconclusive: a regression above ${formatPercent(settings.failThreshold)} can be neither confirmed nor ruled out`,
    );
  }
  if (unsteady > 0) {
    reasons.push(
      `${plural(unsteady, "count")} not deterministic (rounds of the same code differ): reported, not decided`,
    );
  }
  if (mode === "single-run" && entries.some((e) => !isExact(e))) {
    reasons.push(
      `one run per side: results are unverified and only changes of ${formatPercent(settings.unverifiedThreshold)} or more can fail`,
    );
  }
  const alone = entries.filter((e) => e.unverified && e.secondary !== true).length;
  if (mode === "history" && alone > 0) {
    reasons.push(
      `${plural(alone, "benchmark")} without history on this runner: unverified, only changes of ${formatPercent(settings.unverifiedThreshold)} or more can fail`,
    );
  }
  if (env.mismatch)
    reasons.push(
      `base and head ran on different environments (${plural(env.differences.length, "difference")})`,
    );
  if (counts.total === 0) reasons.push("no benchmarks on either side");
  return reasons;
}

/** What the reader must know about a history that was given: set aside, or far wider than this job. */
function historyReasons(analysis: Analysed): string[] {
  if (analysis.historySetAside !== undefined) return [analysis.historySetAside];
  const wide = [...(analysis.history?.spread.values() ?? [])].filter((s) => s.overstated);
  if (wide.length === 0) return [];
  const widest = Math.min(...wide.map((s) => s.lambda));
  return [
    `the history's noise is far above this job's own spread (its differences spread ${formatPercent(Math.sqrt(widest))} of what the history predicts): the history may hold disturbed runs or another machine's; regressions it hides are caught only by the single-run rule`,
  ];
}

/** The report's `settings` block: the settings as used, and the method that was run. */
function reportSettings(
  settings: CompareSettings,
  analysis: Analysed,
  paired: PairedInput,
): BenchReport["settings"] {
  const ordered = analysis.suites.some((s) => s.look.orderEffect !== undefined);
  const design = settings.unpaired ? undefined : paired.sequential;
  const method = `${METHOD[settings.unpaired && analysis.mode === "rounds" ? "unpaired" : analysis.mode]}${design === undefined ? "" : METHOD.sequential}`;
  return {
    method,
    statistic: "median",
    q: settings.q,
    noise_floor: settings.noiseFloor,
    fail_threshold: settings.failThreshold,
    unverified_threshold: settings.unverifiedThreshold,
    confidence: settings.confidence,
    // Rounds, not blocks: a sharded run's shards each ran the same rounds.
    rounds: new Set([...paired.order.keys()].map((b) => blockParts(b).round)).size,
    crossover: ordered,
    fail_on_inconclusive: settings.failOnInconclusive,
    design:
      design === undefined
        ? { kind: "fixed" }
        : {
            kind: "sequential",
            min_rounds: design.minRounds,
            max_rounds: design.maxRounds,
            spending: SPENDING,
          },
    missing: settings.missing,
    unpaired: settings.unpaired,
    min_benchmarks_for_rounds: settings.minBenchmarksForPeriod,
    count_threshold: Math.min(1, settings.countThreshold),
    count_noise_floor: settings.countNoiseFloor,
  };
}

/** How many single set-aside values the report lists (all are counted). */
const SET_ASIDE_LISTED = 50;

/** The history block's spread: the smallest suite's, as a share of what the history predicts. */
function spreadOf(history: HistoryNoiseLook): { spread: number | null; overstated: boolean } {
  const all = [...history.spread.values()];
  if (all.length === 0) return { spread: null, overstated: false };
  return {
    spread: Math.sqrt(Math.min(...all.map((s) => s.lambda))),
    overstated: all.some((s) => s.overstated),
  };
}

/** The report's `noise` block: how noisy the benchmarks were and what that lets the gate see. */
function noiseSummary(
  all: readonly Entry[],
  analysis: Analysed,
  noise: NoiseSource | undefined,
  contention: Contention | undefined,
): BenchReport["noise"] {
  // Exact counts have no noise: the noise block describes what the statistics worked on.
  const entries = all.filter((e) => e.determinism?.status !== "deterministic");
  const sds = entries.map((e) => e.sd?.own).filter((x): x is number => typeof x === "number");
  const mdes = entries.map((e) => e.mde).filter((x): x is number => x !== null);
  const prior = analysis.suites.map((s) => s.look).find((l) => l.prior !== undefined)?.prior;
  const ordered = analysis.suites.find((s) => s.look.orderEffect !== undefined);
  const history = analysis.history;
  const records = entries
    .map((e) => (noise?.kind === "history" ? noise.series.get(noiseKey(e))?.records : undefined))
    .filter((x): x is number => x !== undefined);
  return {
    median_sd: sds.length > 0 ? median(sds) : null,
    prior_sd: prior === undefined ? null : Math.sqrt(prior.variance),
    prior_df: prior === undefined || !Number.isFinite(prior.df) ? null : prior.df,
    median_mde: mdes.length > 0 ? median(mdes) : null,
    period_effect: ordered?.look.orderEffect ?? null,
    ...(contention === undefined
      ? {}
      : {
          contention: {
            processes: contention.processes,
            contended: contention.contended,
            threshold: contention.threshold,
            median_share: contention.medianShare ?? null,
          },
        }),
    ...(history === undefined || noise?.kind !== "history"
      ? {}
      : {
          history: {
            ...noise.basis,
            benchmarks: history.withHistory,
            without: history.withoutHistory,
            median_records: records.length > 0 ? median(records) : null,
            inflation: Math.max(1, ...history.inflation.values()),
            ...spreadOf(history),
            set_aside: {
              records: noise.setAside.records.map((r) => ({ ...r })),
              values: noise.setAside.values.slice(0, SET_ASIDE_LISTED).map((v) => ({ ...v })),
              values_total: noise.setAside.values.length,
            },
          },
        }),
  };
}

/** Each shard's machine and how many of the report's benchmarks it measured. */
function shardsBlock(
  paired: PairedInput,
  entries: readonly Entry[],
): NonNullable<BenchReport["shards"]> {
  const shardOf = new Map<string, number>();
  for (const s of paired.series) {
    const block = [...s.head.keys(), ...s.base.keys()][0];
    const shard = block === undefined ? undefined : blockParts(block).shard;
    if (shard !== undefined) shardOf.set(s.id, shard);
  }
  const counted = new Map<number, number>();
  for (const e of entries) {
    const shard = shardOf.get(e.id);
    if (shard !== undefined) counted.set(shard, (counted.get(shard) ?? 0) + 1);
  }
  const count = paired.shards?.count ?? 0;
  return [...(paired.shards?.machines ?? [])].map(([index, { base, head }]) => ({
    index,
    count,
    benchmarks: counted.get(index) ?? 0,
    ...(base === undefined ? {} : { base }),
    ...(head === undefined ? {} : { head }),
  }));
}

/** Compares base and head summaries (paired by round) and returns the report. */
export function compare(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
  options: CompareOptions,
): BenchReport {
  const { settings } = options;
  // Base, head, base has two base runs to one head run: paired by side, not by round.
  const aba = options.noise?.kind === "aba";
  const paired = pairSummaries(base, head, { unpaired: settings.unpaired || aba });
  const own = options.countThresholds;
  const settled = settleCounts(paired.series, settings, (suite) => {
    return (
      own?.get(suite) ?? {
        threshold: settings.countThreshold,
        noiseFloor: settings.countNoiseFloor,
      }
    );
  });
  const rest = paired.series.filter((s) => !settled.decided.has(s.id));
  const timed = analyse({ ...paired, series: rest }, settings, options.noise);
  const byId = new Map(timed.decisions.map((d) => [d.series.id, d]));
  const decisions: Decision[] = paired.series.map((s) => {
    const exact = settled.decided.get(s.id);
    if (exact !== undefined) return exact;
    const d = byId.get(s.id) as Decision;
    const noisy = settled.noisy.get(s.id);
    if (noisy === undefined) return d;
    // A count that moves between runs of the same code measures the machine, not the code:
    // neither a regression nor "unchanged" can be trusted, whatever the timing test says.
    const notes = [...d.notes, nonDeterministicNote(noisy, d.verdict)];
    return { ...d, verdict: "inconclusive", notes };
  });
  // Exact counts over two rounds or more are replicated even when no timing was tested.
  const replicated = [...settled.decided.values()].some((d) => d.rounds >= 2);
  const analysis: Analysed = {
    ...timed,
    decisions,
    // Base, head, base is its design whatever was timed (a suite of exact counts only has no
    // timing to test, yet its two base runs were measured).
    mode: aba ? "aba" : replicated && timed.mode === "single-run" ? "rounds" : timed.mode,
  };
  const determinismOf = (id: string): Determinism | undefined =>
    settled.decided.get(id)?.determinism ?? settled.noisy.get(id);
  const entries = analysis.decisions.map((d) => toEntry(d, determinismOf(d.series.id)));
  const suites = analysis.suites.map((s) => toSuite(s, settings.unpaired));
  const env =
    paired.shards === undefined
      ? checkEnvironments(paired.environment.base, paired.environment.head)
      : checkShardEnvironments(paired.shards);
  const counts = countVerdicts(entries);
  const shifted = suites.filter((s) => s.shift?.verdict === "regressed");
  const roundNumbers = [...paired.order.keys()].sort((a, b) => a - b);
  const report: BenchReport = {
    schema_version: 1,
    ...(options.now === undefined ? {} : { generated_at: options.now }),
    ...(options.generator === undefined ? {} : { generator: options.generator }),
    // Decided below from the finished report (gate-verdict.ts); the key keeps its place.
    verdict: "pass",
    reasons: [
      ...reasonsFor(entries, counts, shifted, analysis.mode, env, settings),
      ...historyReasons(analysis),
    ],
    mode: analysis.mode,
    settings: reportSettings(settings, analysis, paired),
    environment: {
      ...(paired.environment.base === undefined ? {} : { base: paired.environment.base }),
      ...(paired.environment.head === undefined ? {} : { head: paired.environment.head }),
      mismatch: env.mismatch,
      differences: env.differences,
      warnings: env.warnings,
    },
    noise: noiseSummary(entries, analysis, options.noise, contentionOf([...base, ...head])),
    ...(paired.shards === undefined ? {} : { shards: shardsBlock(paired, entries) }),
    rounds: roundNumbers.map((block) => {
      const { round, shard } = blockParts(block);
      return {
        round,
        ...(shard === undefined ? {} : { shard }),
        first: paired.order.get(block) ?? "unknown",
      };
    }),
    counts,
    suites,
    benchmarks: entries,
    budgets: [],
    golden: [],
    smells: [],
  };
  return { ...report, verdict: verdictOf(report) };
}
