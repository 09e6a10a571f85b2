// What moved at the latest commit, for the page's first screen: per series, the latest median
// against the commit before it, and the cards ordered regressions first.
//
// The history keeps each commit's medians and intervals, not the gate's per-benchmark verdicts,
// so this is the page's own reading, and a cautious one. A series moved when all of these hold:
// - the latest median's interval and the previous commit's do not overlap (for the
//   order-statistic interval of docs/history.md, the rounds of both commits disagree);
// - the latest median lies outside every median of the RECENT commits before it: a series
//   whose medians wander from commit to commit further than its intervals admit (this VM's
//   bimodal runs) is not called moved for doing it once more;
// - the step from the level of those commits (their median) is at least MIN_STEP.
// Without intervals (imported series, fewer than three rounds) nothing can be told from noise,
// so nothing is flagged. A superseded baseline starts the series afresh: what came before it
// is not compared with, and one at the latest commit is a method change, never a step. Change points (change-points.ts) cannot see a new level at the very end of the history:
// they need several commits on each side.
import type { PageLatestStep } from "./page-model.ts";

/** The smallest step shown as a change, as for change points (change-points.ts, minStep). */
const MIN_STEP = 0.01;
/** How many measured commits before the latest one give its level and its usual range. */
const RECENT = 10;

export interface StepInput {
  /** Commit index of the first element of each array. */
  readonly start: number;
  readonly median: readonly (number | null)[];
  readonly low: readonly (number | null)[] | null;
  readonly high: readonly (number | null)[] | null;
  /** Commit indexes where a superseded baseline starts for this series. */
  readonly breaks: readonly number[];
  readonly direction: "smaller_is_better" | "bigger_is_better";
}

/** The step of a series at commit `latest`, or null when it has none there or did not move. */
export function latestStep(series: StepInput, latest: number): PageLatestStep | null {
  const at = latest - series.start;
  const after = series.median[at];
  if (after === null || after === undefined) return null;
  // The segment's first commit: nothing before a superseded baseline is compared with.
  const from = Math.max(series.start, ...series.breaks.filter((b) => b <= latest)) - series.start;
  const recent: number[] = [];
  let p = -1;
  for (let i = at - 1; i >= from && recent.length < RECENT; i--) {
    const value = series.median[i] ?? null;
    if (value === null) continue;
    if (p === -1) p = i;
    recent.push(value);
  }
  if (p === -1) return null;
  const previous = series.start + p;
  if (!(after > Math.max(...recent) || after < Math.min(...recent))) return null;
  const before = middle(recent);
  const [lowNow, highNow] = [series.low?.[at] ?? null, series.high?.[at] ?? null];
  const [lowThen, highThen] = [series.low?.[p] ?? null, series.high?.[p] ?? null];
  if (lowNow === null || highNow === null || lowThen === null || highThen === null) return null;
  if (!(lowNow > highThen || highNow < lowThen)) return null;
  if (before === 0) return null;
  const step = after / before - 1;
  if (!(Math.abs(step) >= MIN_STEP)) return null;
  const worse = series.direction === "bigger_is_better" ? step < 0 : step > 0;
  return { index: latest, previous, before, after, step, worse };
}

function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface CardSteps {
  /** The card's lead series. */
  readonly lead: number;
  readonly own: PageLatestStep | null;
  /** Steps of the card's secondary series. */
  readonly secondary: readonly PageLatestStep[];
}

/**
 * The leads of the cards that moved at the latest commit, in the order the page shows them:
 * a lead that regressed, then one that improved (each by the size of the step, largest first,
 * as a ratio so that 3× slower outranks 2× faster), then cards where only a secondary count
 * moved (regressions first, by their largest step).
 */
export function changedCardOrder(cards: readonly CardSteps[]): number[] {
  const size = (s: PageLatestStep): number => Math.abs(Math.log(s.after / s.before));
  const rank = (c: CardSteps): [number, number] => {
    if (c.own !== null) return [c.own.worse ? 0 : 1, size(c.own)];
    const worst = c.secondary.some((s) => s.worse) ? 2 : 3;
    const biggest = Math.max(...c.secondary.filter((s) => s.worse === (worst === 2)).map(size));
    return [worst, biggest];
  };
  return cards
    .filter((c) => c.own !== null || c.secondary.length > 0)
    .map((c) => ({ lead: c.lead, rank: rank(c) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || b.rank[1] - a.rank[1] || a.lead - b.lead)
    .map((c) => c.lead);
}
