// How many rounds an open benchmark still needs, judged at its current estimate and spread: what
// a time budget too small for every open benchmark spends its time on (runner/round-budget.ts).
//
// Why plan at all: a suite of 84 benchmarks on a shared 2-vCPU machine had 53 of them still open
// after round 6, most near zero with one or two processes far off; running all of them every
// round spent the 15-minute budget in six rounds, before the median of the rounds (from
// MEDIAN_MIN_ROUNDS, median-of-rounds.ts) could judge any, and one benchmark 17 % slower in four
// rounds of six (the other two 5 % and 44 %) ended inconclusive. Giving the time to the
// benchmarks that it can settle, first those that would fail the gate, settles more in the
// same time.
//
// The outlook is a projection, not a test: the rounds at which the benchmark would settle if its
// estimate and per-round spread stayed as they are now (power one half). From MEDIAN_MIN_ROUNDS
// rounds on it projects the median with the median's spread (the MAD's), since that is what
// will judge those rounds; before that, the mean with the rounds' SD. The projection only
// chooses which benchmarks run next; it changes no p-value. The error control does not depend on
// it: a benchmark's sequential p-value is valid whatever rule decides when its looks stop
// (sequential.ts), and leaving a benchmark out of later rounds is such a rule. Pure.
import type { CompareSettings } from "./settings.ts";
import type { SequentialDesign } from "./pairing.ts";
import type { TestedLook } from "./look-analysis.ts";
import { halfWidth } from "./verdict-rule.ts";
import { tQuantile } from "./distributions.ts";
import { MEDIAN_MIN_ROUNDS } from "./median-of-rounds.ts";
import { MAD_EFFICIENCY } from "./robust.ts";

export interface Outlook {
  /** Rounds the benchmark has now. */
  readonly rounds: number;
  /**
   * The fewest rounds (at most max rounds) after which it would be settled — regressed,
   * improved or ruled out — if its estimate and spread held; undefined: not by max rounds.
   */
  readonly settleAt: number | undefined;
  /**
   * The estimate that would judge it (at settleAt, else at max rounds) is at or above the fail
   * threshold: confirmed, it would fail the gate.
   */
  readonly couldFail: boolean;
}

/** What the look shares with every benchmark's projection. */
export interface OutlookContext {
  readonly design: SequentialDesign;
  readonly settings: CompareSettings;
  /** The noise floor and the fail threshold, log scale. */
  readonly logFloor: number;
  readonly logFail: number;
  /** Benjamini–Hochberg at this look: rejections so far and hypotheses. */
  readonly rejected: number;
  readonly tests: number;
  /** The share of the error rate look k spends. */
  readonly weight: (k: number) => number;
}

/** The estimate, per-round SD and df that would judge the benchmark after `n` rounds. */
function projection(
  t: TestedLook,
  n: number,
  robust: boolean,
): { estimate: number; sd: number; df: number; median: boolean } {
  if (robust && n >= MEDIAN_MIN_ROUNDS && t.median !== undefined && t.median.sd > 0)
    return {
      estimate: t.median.estimate,
      sd: t.median.sd,
      df: MAD_EFFICIENCY * (n - 1),
      median: true,
    };
  return {
    estimate: t.estimate,
    sd: t.se * Math.sqrt(t.rounds),
    df: t.df + (n - t.rounds),
    median: false,
  };
}

/** Would the benchmark be settled after `n` rounds, its estimate and spread holding? */
function settledAt(t: TestedLook, n: number, x: OutlookContext): boolean {
  const { settings, logFloor: floor, logFail: fail } = x;
  const p = projection(t, n, settings.robust);
  const se = p.sd / Math.sqrt(n);
  const weight = x.weight(n);
  // One more rejection than so far: the step of Benjamini–Hochberg this benchmark would take.
  const level = Math.min(0.5, (settings.q * weight * (x.rejected + 1)) / Math.max(1, x.tests));
  const c = tQuantile(1 - level, p.df);
  // The sign test under the median's p-value: at best every round on one side, 2⁻ⁿ.
  const signs = !p.median || 2 ** -n <= level;
  const confirmable = signs && (t.waiting === undefined || n >= t.waiting);
  const magnitude = Math.abs(p.estimate);
  if (confirmable && magnitude >= fail && magnitude - c * se >= floor) return true;
  return p.estimate + halfWidth(settings, weight, p.df, se) <= fail;
}

/** The benchmark's outlook at this look: when it would settle, and whether it could fail. */
export function outlookOf(t: TestedLook, x: OutlookContext): Outlook {
  let settleAt: number | undefined;
  for (let n = t.rounds + 1; n <= x.design.maxRounds && settleAt === undefined; n++)
    if (settledAt(t, n, x)) settleAt = n;
  // Whether it could fail is read from the estimate that will judge it: one far round lifts the
  // mean of six above the threshold, not the median of twelve.
  const judged = projection(t, settleAt ?? x.design.maxRounds, x.settings.robust);
  return { rounds: t.rounds, settleAt, couldFail: judged.estimate >= x.logFail };
}
