// How many times faster one benchmark is than another on one side (docs/statistics.md §12):
// the speedup S of A over B, paired per round. Both ran in the same round (and, within a suite,
// the same process), so whatever slowed that round slowed both, and the round's log ratio
// d_r = ln(B_r / A_r) (ln(A_r / B_r) for bigger-is-better units) is free of it. S = exp(mean d),
// its interval exp of Student's t interval of the mean of d with n − 1 degrees of freedom.
// Claims (budgets/check-claims.ts) and head-to-head tables read it. Pure.
import { tQuantile } from "./distributions.ts";
import type { BenchmarkSeries, Side } from "./pairing.ts";
import { mean, variance } from "./statistics.ts";
import type { HeadToHeadResult, SideRatio } from "../schemas/report.gen.ts";

/**
 * One benchmark of a suite with variants, measured per variant: the reference (the first variant
 * listed) and another. Made from the config's suites; ratios of `other` over `reference`.
 */
export interface HeadToHead {
  readonly suite: string;
  /** The benchmark's id without its variant. */
  readonly benchmark: string;
  readonly reference: { readonly variant: string; readonly id: string };
  readonly other: { readonly variant: string; readonly id: string };
}

/** exp(mean d) and exp of its t interval. */
interface LogRatioEstimate {
  readonly estimate: number;
  /** Undefined with one round: one log ratio has no spread to make an interval from. */
  readonly interval: readonly [number, number] | undefined;
  readonly rounds: number;
}

export interface Speedup extends LogRatioEstimate {
  readonly kind: "speedup";
  readonly level: number;
  /** The rounds of the side in which both were measured, ascending. */
  readonly roundNumbers: readonly number[];
}

/** Why there is no speedup to give: a sentence that names both benchmarks. */
interface NoSpeedup {
  readonly kind: "none";
  readonly reason: string;
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1))
    throw new RangeError(`a confidence level is in (0, 1), got ${String(level)}`);
}

/**
 * exp(mean) of per-round log ratios and exp of the two-sided t interval of their mean at `level`
 * (df = n − 1). All equal (an exact count) gives a point interval. Needs n ≥ 1 finite values.
 */
export function logRatioEstimate(d: readonly number[], level: number): LogRatioEstimate {
  checkLevel(level);
  const n = d.length;
  if (n === 0 || d.some((x) => !Number.isFinite(x)))
    throw new RangeError("logRatioEstimate needs at least one finite log ratio");
  const m = mean(d);
  if (n === 1) return { estimate: Math.exp(m), interval: undefined, rounds: 1 };
  const se = Math.sqrt(variance(d) / n);
  const half = tQuantile(1 - (1 - level) / 2, n - 1) * se;
  return { estimate: Math.exp(m), interval: [Math.exp(m - half), Math.exp(m + half)], rounds: n };
}

/** An id in a message, quoted and cut to 100 characters (ids may be 1024, a message 2048). */
export function quoteId(id: string): string {
  const chars = Array.from(id);
  return JSON.stringify(chars.length > 100 ? `${chars.slice(0, 100).join("")}…` : id);
}

function rounds(list: readonly number[]): string {
  const shown = list.slice(0, 8).join(", ");
  return list.length > 8 ? `${shown}, …` : shown;
}

/**
 * The speedup S of `a` over `b` on `side`: time(b)/time(a) for smaller-is-better units,
 * value(a)/value(b) for bigger-is-better ones, from the rounds of that side that measured both.
 * S > 1: `a` is better. Unusable input (different units, never measured together, a value that
 * is not positive) gives the reason instead.
 */
export function speedup(
  a: BenchmarkSeries,
  b: BenchmarkSeries,
  side: Side,
  level: number,
): Speedup | NoSpeedup {
  checkLevel(level);
  const none = (reason: string): NoSpeedup => ({ kind: "none", reason });
  const A = quoteId(a.id);
  const B = quoteId(b.id);
  if (a.unit !== b.unit || a.direction !== b.direction)
    return none(
      `${A} is measured in ${a.unit} (${a.direction}) and ${B} in ${b.unit} (${b.direction}): a speedup compares two benchmarks of one unit and direction`,
    );
  const ra = a[side];
  const rb = b[side];
  if (ra.size === 0 || rb.size === 0)
    return none(`${ra.size === 0 ? A : B} was not measured on ${side}`);
  const common = [...ra.keys()].filter((r) => rb.has(r)).sort((x, y) => x - y);
  if (common.length === 0)
    return none(
      `${A} and ${B} were never measured in the same ${side} round (${A} in ${rounds([...ra.keys()].sort((x, y) => x - y))}, ${B} in ${rounds([...rb.keys()].sort((x, y) => x - y))})`,
    );
  const d: number[] = [];
  for (const r of common) {
    const va = ra.get(r)?.value ?? Number.NaN;
    const vb = rb.get(r)?.value ?? Number.NaN;
    for (const [name, v] of [
      [A, va],
      [B, vb],
    ] as const)
      if (!(v > 0 && Number.isFinite(v)))
        return none(
          `${name} reads ${String(v)} ${a.unit} in ${side} round ${r}: a ratio needs positive values`,
        );
    // A difference of logs, not the log of a quotient: 1e300 / 1e-10 would overflow to Infinity.
    const log = Math.log(va) - Math.log(vb);
    d.push(a.direction === "bigger_is_better" ? log : -log);
  }
  return { kind: "speedup", level, roundNumbers: common, ...logRatioEstimate(d, level) };
}

/** The schema's cap on a speedup: an absurd ratio is written as this rather than as Infinity. */
const MAX_RATIO = 1e300;

/** A speedup as report.json can hold it (at most 1e300). */
export function capRatio(x: number): number {
  return Math.min(Math.max(x, 0), MAX_RATIO);
}

function sideRatio(s: Speedup | NoSpeedup): SideRatio {
  if (s.kind === "none") return { ratio: null, interval: null, rounds: 0, reason: s.reason };
  return {
    ratio: capRatio(s.estimate),
    interval: s.interval === undefined ? null : [capRatio(s.interval[0]), capRatio(s.interval[1])],
    rounds: s.rounds,
    ...(s.interval === undefined ? { reason: "one round: no interval" } : {}),
  };
}

/**
 * The speedup of each pair's other variant over its reference, on head and on base, at `level`
 * (information, not a verdict: no correction over the pairs). Ids come from the config, the
 * series from the summaries; a side that cannot give a ratio says why, and a pair of which
 * neither benchmark was measured is left out.
 */
export function headToHeadResults(
  pairs: readonly HeadToHead[],
  series: readonly BenchmarkSeries[],
  level: number,
): HeadToHeadResult[] {
  checkLevel(level);
  const byId = new Map(series.map((s) => [s.id, s]));
  // A pair neither of whose benchmarks ran (a filtered run, `/rebench parse`) has nothing to say.
  const ran = pairs.filter((p) => byId.has(p.reference.id) || byId.has(p.other.id));
  return ran.map((pair) => {
    const reference = byId.get(pair.reference.id);
    const other = byId.get(pair.other.id);
    const known = reference ?? other;
    const side = (name: Side): SideRatio => {
      if (reference === undefined || other === undefined) {
        const absent = reference === undefined ? pair.reference.id : pair.other.id;
        return sideRatio({ kind: "none", reason: `${quoteId(absent)} was not measured` });
      }
      return sideRatio(speedup(other, reference, name, level));
    };
    return {
      suite: pair.suite,
      benchmark: pair.benchmark,
      reference: { variant: pair.reference.variant, id: pair.reference.id },
      other: { variant: pair.other.variant, id: pair.other.id },
      ...(known === undefined ? {} : { unit: known.unit, direction: known.direction }),
      level,
      head: side("head"),
      base: side("base"),
    };
  });
}
