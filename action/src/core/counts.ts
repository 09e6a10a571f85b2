// Deterministic counts: instructions (and the other counts) read under Valgrind. The same code
// run twice gives the same count to the instruction, so such a series is not a sample of noise to
// be tested: it is decided on its own scale. Every round of a side must read one value; then the
// change head/base − 1 is exact, changes below the noise floor are nothing, and a change of at
// least the threshold is a regression (or an improvement). Counts that differ between rounds of
// one side are not deterministic (spin loops, timeouts, threads, a random hash seed): they are
// reported as such, with the spread, and handed back to be tested like timings for a change and
// an interval, but compare-summaries.ts makes them inconclusive whatever that test says. Pure.
import { formatExactChange, formatExactPercent } from "../number-text.ts";
import { untested, type Decision } from "./decision.ts";
import type { BenchmarkSeries, Observation } from "./pairing.ts";
import type { CompareSettings } from "./settings.ts";

/** A suite's thresholds for its deterministic counts, as fractions (0.01 = 1 %). */
export interface CountThresholds {
  readonly threshold: number;
  readonly noiseFloor: number;
}

export interface Determinism {
  readonly status: "deterministic" | "non-deterministic" | "unchecked";
  /** Per side, (max − min) / median of its rounds' values; undefined with one round. */
  readonly spread: { readonly base: number | undefined; readonly head: number | undefined };
  /** The thresholds the series was decided with. */
  readonly threshold: number;
  readonly noiseFloor: number;
}

interface SettledCounts {
  /** Decided here: exact counts, and secondary counts that are not deterministic. */
  readonly decided: ReadonlyMap<string, CountDecision>;
  /** Primary counts that are not deterministic: the caller tests them like timings. */
  readonly noisy: ReadonlyMap<string, Determinism>;
}

interface CountDecision extends Decision {
  readonly determinism: Determinism;
}

/**
 * Relative slack when comparing a change with a threshold: 0.01 is not exactly representable,
 * and a change of exactly 1 % of an integer count must count as 1 %.
 */
const SLACK = 1e-9;

function values(side: ReadonlyMap<number, Observation>): number[] {
  return [...side.values()].map((o) => o.value);
}

/** (max − min) / median; 0 when every value is the same (also when all are 0). */
export function spreadOf(xs: readonly number[]): number | undefined {
  if (xs.length < 2) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  const min = sorted[0] as number;
  const max = sorted[sorted.length - 1] as number;
  if (max === min) return 0;
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(mid)] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  // A median of 0 with a non-zero max: the count went from nothing to something between rounds.
  return median > 0 ? (max - min) / median : Number.POSITIVE_INFINITY;
}

function what(series: BenchmarkSeries): string {
  return series.metric === undefined ? series.unit : series.metric.replaceAll("_", " ");
}

/** The decision on two exact counts: the change is known, only its size matters. */
function exact(
  series: BenchmarkSeries,
  base: number,
  head: number,
  determinism: Determinism,
  rounds: number,
): CountDecision {
  const notes: string[] = [];
  const { threshold, noiseFloor } = determinism;
  let verdict: Decision["verdict"] = "unchanged";
  let estimate: number | undefined;
  if (base === 0 && head === 0) {
    estimate = 0;
  } else if (base === 0 || head === 0) {
    // No relative change exists; a count that appears or vanishes is a change of any size.
    const worse = head > base === (series.direction === "smaller_is_better");
    verdict = worse ? "regressed" : "improved";
    notes.push(`${what(series)}: ${base} in base, ${head} in head`);
  } else {
    const change = head / base - 1;
    const worsening = series.direction === "smaller_is_better" ? change : base / head - 1;
    const bettering = series.direction === "smaller_is_better" ? base / head - 1 : change;
    estimate =
      series.direction === "smaller_is_better" ? Math.log(head / base) : Math.log(base / head);
    if (worsening >= threshold - SLACK) verdict = "regressed";
    else if (bettering >= threshold - SLACK) verdict = "improved";
    else if (Math.abs(change) >= noiseFloor - SLACK)
      notes.push(
        `${formatExactChange(change)} ${what(series)}: a real change (the count is exact) but below the ${formatExactPercent(threshold)} threshold`,
      );
  }
  if (determinism.status === "unchecked")
    notes.push("one round on a side: whether this count is deterministic was not checked");
  return {
    series,
    verdict,
    rounds,
    estimate,
    interval: estimate === undefined ? undefined : [estimate, estimate],
    p: undefined,
    q: undefined,
    mde: Math.log1p(threshold),
    sd: { own: undefined, used: undefined, df: undefined },
    unverified: determinism.status === "unchecked",
    stop: undefined,
    notes,
    determinism,
  };
}

/** The single value of a side whose rounds agree. */
function only(side: ReadonlyMap<number, Observation>): number {
  return values(side)[0] as number;
}

/**
 * Splits the deterministic series: the ones decided here, and the non-deterministic primary ones,
 * to be tested like timings for their change and interval but never decided (compare-summaries.ts). Series that are not counts, or lack a side (new, missing), are left out.
 */
export function settleCounts(
  series: readonly BenchmarkSeries[],
  settings: CompareSettings,
  thresholdsOf: (suite: string) => CountThresholds,
): SettledCounts {
  const decided = new Map<string, CountDecision>();
  const noisy = new Map<string, Determinism>();
  for (const s of series) {
    if (!s.deterministic || s.base.size === 0 || s.head.size === 0) continue;
    const spread = { base: spreadOf(values(s.base)), head: spreadOf(values(s.head)) };
    const rounds = Math.min(s.base.size, s.head.size);
    const differs = (spread.base ?? 0) > 0 || (spread.head ?? 0) > 0;
    if (!differs) {
      const checked = spread.base !== undefined && spread.head !== undefined;
      const t = thresholdsOf(s.suite);
      const determinism: Determinism = {
        status: checked ? "deterministic" : "unchecked",
        spread,
        threshold: t.threshold,
        noiseFloor: t.noiseFloor,
      };
      decided.set(s.id, exact(s, only(s.base), only(s.head), determinism, rounds));
      continue;
    }
    const determinism: Determinism = {
      status: "non-deterministic",
      spread,
      threshold: settings.failThreshold,
      noiseFloor: settings.noiseFloor,
    };
    if (s.secondary) decided.set(s.id, unsettledSecondary(s, determinism, rounds));
    else noisy.set(s.id, determinism);
  }
  return { decided, noisy };
}

/**
 * The note every non-deterministic count carries, with its spread and, for a primary count, what
 * the timing statistics read from it.
 */
export function nonDeterministicNote(d: Determinism, asTiming?: string): string {
  const side = (x: number | undefined): string =>
    x === undefined ? "one round" : Number.isFinite(x) ? formatExactPercent(x) : "from 0";
  const spread = `non-deterministic count: its rounds differ (spread ${side(d.spread.base)} in base, ${side(d.spread.head)} in head)`;
  return asTiming === undefined
    ? spread
    : `${spread}, so it depends on something besides the code (timing, scheduling, a random seed) and is reported, not decided; tested like a timing it reads ${asTiming}`;
}

/**
 * A secondary count that is not deterministic is not worth a test of its own (it can fail
 * nothing): it is reported as inconclusive, with its spread.
 */
function unsettledSecondary(
  series: BenchmarkSeries,
  determinism: Determinism,
  rounds: number,
): CountDecision {
  return {
    ...untested(series, "inconclusive", [nonDeterministicNote(determinism)]),
    rounds,
    determinism,
  };
}
