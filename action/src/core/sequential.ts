// Sequential rounds (`rounds: auto`). Rounds 1…min run every benchmark; after each round from
// min on (a "look") the benchmarks whose answer is known stop and only the others run again, up
// to max rounds. The same replay serves the runner (which benchmarks run next) and compare (the
// verdicts), so a run's report can be recomputed from its summaries alone.
//
// Error control over the looks: look k spends the share w_k = A(k/max) − A((k−1)/max) of the
// error rate (Lan–DeMets spending with the Pocock-type A(t) = ln(1 + (e − 1)·t); the first look
// gets A(min/max)). A benchmark's p-value at look k counts as p/w_k, and its sequential p-value
// is the smallest over its looks: by the union bound P(p* ≤ u) ≤ Σ w_k·u ≤ u under the null, so
// p* is a valid p-value whatever the correlation between looks. Benjamini–Hochberg then runs over
// the p* of all benchmarks (and suite shifts). p* only falls as looks are added, and BH never
// withdraws a rejection when other p-values fall, so a benchmark settled as regressed at a look
// stays regressed in the final report. Intervals at look k have level 1 − (1 − confidence)·w_k,
// so "ruled out" holds for all looks at once.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, RoundOrder, SequentialDesign, SourcedSummary } from "./pairing.ts";
import { settleCounts } from "./counts.ts";
import { pairSummaries } from "./pairing.ts";
import { tCdf, tQuantile } from "./distributions.ts";
import { halfWidth, judge } from "./verdict-rule.ts";
import { MEDIAN_MIN_ROUNDS } from "./median-of-rounds.ts";
import { analyseLook, type Look, type TestedLook } from "./look-analysis.ts";
import {
  adjustAll,
  thresholds,
  type FinalLook,
  type FinalSuite,
  type Stop,
  type StopReason,
} from "./final-look.ts";
import { replayByShard, suiteKey, type ShardReplay } from "./shard-looks.ts";
import { outlookOf, type Outlook, type OutlookContext } from "./settle-outlook.ts";

// The runner reads a run's stop reasons from here, with the next round they lead to.
export type { StopReason } from "./final-look.ts";

export type { SequentialDesign } from "./pairing.ts";

export interface NextRound {
  /** Benchmark ids (unique across suites) to measure in the next round; empty: stop. */
  readonly active: ReadonlySet<string>;
  /** Ids settled so far, with the reason. */
  readonly settled: ReadonlyMap<string, StopReason>;
  /** One progress line, e.g. "after round 4: 12 of 70 still open (3 regressed, 40 ruled out …)". */
  readonly line: string;
  /**
   * Each open benchmark's outlook: how many rounds would settle it, and whether it could fail
   * the gate. A time budget too small for all of them spends the time by it (settle-outlook.ts).
   */
  readonly outlook?: ReadonlyMap<string, Outlook>;
}

/**
 * Stop for futility when, taking the current estimate as the truth, the chance that max rounds
 * would settle the benchmark either way (rule a regression out, or confirm one) is below this:
 * the classical conditional-power rule. More rounds would almost surely end "inconclusive".
 */
const FUTILITY = 0.1;

/** A(t): the share of the error rate spent by information fraction t. */
function spent(t: number): number {
  return Math.log(1 + (Math.E - 1) * Math.min(1, Math.max(0, t)));
}

/** The share of the error rate look k spends (k = min … max). */
export function lookWeight(design: SequentialDesign, k: number): number {
  const { minRounds: min, maxRounds: max } = design;
  if (k <= min) return spent(k / max);
  return spent(k / max) - spent((k - 1) / max);
}

function normalCdf(x: number): number {
  return tCdf(x, Infinity);
}

/** What every benchmark's decision at one look shares: computed once per look. */
interface LookContext extends Omit<OutlookContext, "weight"> {
  readonly k: number;
  /** The share of the error rate this look spends. */
  readonly weight: number;
}

/** Could max rounds still settle this benchmark, judged at its current estimate? */
function futile(t: TestedLook, x: LookContext): boolean {
  const { design, settings, logFloor: floor, logFail: fail } = x;
  const more = design.maxRounds - x.k;
  if (more <= 0) return false;
  const n = t.rounds;
  const N = n + more;
  const seN = t.se * Math.sqrt(n / N);
  // Asymmetric on purpose. Confirming is judged generously, as if all the error rate not yet
  // spent went to one final look: a benchmark that might still turn out regressed keeps
  // running. Ruling out is judged at the level the last look really has: it is what max rounds
  // would show, and a benchmark that could only be ruled out there is not worth every round
  // until then (its verdict stays "inconclusive", which does not fail the gate).
  const remaining = Math.max(1e-12, 1 - spent(x.k / design.maxRounds));
  const last = lookWeight(design, design.maxRounds);
  // The last look's test has the degrees of freedom of N rounds, not of today's n: each round
  // adds one to the benchmark's own variance. With today's (2 after 3 rounds) a ×3 slowdown
  // whose rounds spread by 30 % looked unconfirmable at any number of rounds.
  const dfN = t.df + more;
  const h = halfWidth(settings, last, dfN, seN);
  const level = Math.min(0.5, (settings.q * remaining * (x.rejected + 1)) / Math.max(1, x.tests));
  const c = tQuantile(1 - level, dfN);
  const tau = (t.se * Math.sqrt(n * more)) / N;
  if (!(tau > 0)) return false;
  const ruleOut = normalCdf((fail - h - t.estimate) / tau);
  const confirm = 1 - normalCdf((Math.max(fail, floor + c * seN) - t.estimate) / tau);
  return ruleOut + confirm < FUTILITY;
}

function settle(
  t: TestedLook,
  q: { up: number; down: number },
  x: LookContext,
): StopReason | undefined {
  const { settings, logFail: fail } = x;
  const upper = t.estimate + halfWidth(settings, x.weight, t.df, t.se);
  const outcome = judge({ estimate: t.estimate, upper }, q, settings, fail);
  if (outcome !== "open") return outcome;
  if (x.k >= x.design.maxRounds) return "max-rounds";
  // A load that cannot be confirmed yet keeps running until it can; a design that never gets it
  // there has nothing to wait for.
  if (t.waiting !== undefined && t.rounds < t.waiting)
    return x.design.maxRounds < t.waiting ? "futile" : undefined;
  // Futility projects today's estimator to the last look. When the median of the rounds will
  // judge that look (MEDIAN_MIN_ROUNDS, median-of-rounds.ts) and the mean judges today, the
  // projection measures the wrong thing: under contention the mean's error is the bursts', which
  // the median does not pay. So no benchmark stops as futile before the median can judge it.
  if (settings.robust && t.rounds < MEDIAN_MIN_ROUNDS && x.design.maxRounds >= MEDIAN_MIN_ROUNDS)
    return undefined;
  if (futile(t, x)) return "futile";
  return undefined;
}

function lastRoundOf(series: readonly BenchmarkSeries[]): number {
  let last = 0;
  for (const s of series) for (const r of s.base.keys()) if (s.head.has(r) && r > last) last = r;
  return last;
}

/** What the replay carries from one look to the next. */
interface ReplayState {
  /** Last round a settled benchmark may use: later looks see it as it was when it stopped. */
  readonly limitOf: Map<string, number>;
  readonly finals: Map<string, FinalLook>;
  readonly suites: Map<string, FinalSuite>;
  readonly settled: Map<string, StopReason>;
  readonly stopAt: Map<string, Stop>;
  /** The latest look's context: what the open benchmarks' outlooks are projected from. */
  lastLook: LookContext | undefined;
}

/** One look of the replay: its round, its share of the error rate, and the first look's round. */
interface LookStep {
  readonly k: number;
  readonly weight: number;
  readonly firstLook: number;
}

/**
 * Folds a look into the open benchmarks' and the suites' final looks: each p-value counts as
 * p/w at this look, and the sequential p-value is the smallest so far.
 */
function foldLook(state: ReplayState, look: Look, step: LookStep): void {
  const { k, weight, firstLook } = step;
  for (const [id, b] of look.benchmarks) {
    if (state.settled.has(id)) continue;
    // Open but absent from this round (its filter matched nothing): no new data, no new look.
    if (b.kind === "tested" && b.lastRound < k && k > firstLook) continue;
    const prev = state.finals.get(id);
    const pUp = b.kind === "tested" ? b.pUp / weight : 1;
    const pDown = b.kind === "tested" ? b.pDown / weight : 1;
    state.finals.set(id, {
      look: b,
      pUp: Math.min(prev?.pUp ?? 1, pUp),
      pDown: Math.min(prev?.pDown ?? 1, pDown),
      weight,
      stop: undefined,
    });
  }
  for (const s of look.suites) {
    const prev = state.suites.get(suiteKey(s));
    state.suites.set(suiteKey(s), {
      look: s,
      pUp: Math.min(prev?.pUp ?? 1, (s.shift?.pUp ?? 1) / weight),
      pDown: Math.min(prev?.pDown ?? 1, (s.shift?.pDown ?? 1) / weight),
      weight,
    });
  }
}

/**
 * Settles what this look can settle: Benjamini–Hochberg over every final look so far, then each
 * open tested benchmark stops or not; a benchmark that cannot be tested stops as futile.
 * Returns whether anything is still open.
 */
function settleLook(
  state: ReplayState,
  step: LookStep,
  settings: CompareSettings,
  design: SequentialDesign,
): boolean {
  const { k, firstLook } = step;
  const list = [...state.finals.values()];
  const q = adjustAll(list, [...state.suites.values()]);
  const { logFloor, logFail } = thresholds(settings);
  const context: LookContext = {
    k,
    weight: step.weight,
    design,
    settings,
    logFloor,
    logFail,
    rejected: q.up.filter((x) => x <= settings.q).length,
    tests: q.up.length,
  };
  state.lastLook = context;
  const tests = list.filter((f) => f.look.kind === "tested");
  tests.forEach((f, i) => {
    const t = f.look as TestedLook;
    if (state.settled.has(t.series.id)) return;
    const reason =
      t.lastRound < k && k > firstLook
        ? design.timeBudgetMs === undefined
          ? "not-measured"
          : "time-budget"
        : settle(t, { up: q.up[i] as number, down: q.down[i] as number }, context);
    if (reason === undefined) return;
    state.settled.set(t.series.id, reason);
    state.stopAt.set(t.series.id, { reason, afterRound: t.lastRound });
    state.limitOf.set(t.series.id, t.lastRound);
  });
  for (const f of list)
    if (f.look.kind !== "tested" && !state.settled.has(f.look.series.id)) {
      state.settled.set(f.look.series.id, "futile");
      state.limitOf.set(f.look.series.id, k);
    }
  return list.some((f) => !state.settled.has(f.look.series.id));
}

/** Stamps every final look with its stop; a benchmark still open is active. */
function closeReplay(state: ReplayState): Set<string> {
  const active = new Set<string>();
  for (const [id, f] of state.finals) {
    const stop = state.stopAt.get(id);
    if (stop === undefined && f.look.kind === "tested") {
      active.add(id);
      // Still open when the data ends: the run stopped early (time budget) or is in progress.
      state.finals.set(id, { ...f, stop: { reason: "time-budget", afterRound: f.look.lastRound } });
    } else state.finals.set(id, { ...f, stop });
  }
  return active;
}

/**
 * Replays the looks of a sequential design on the rounds measured so far, of one machine's
 * rounds (a sharded run replays each shard on its own: shard-looks.ts).
 */
function replay(
  series: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
  settings: CompareSettings,
  design: SequentialDesign,
  withOutlook = false,
): ShardReplay {
  const lastRound = Math.min(lastRoundOf(series), design.maxRounds);
  const state: ReplayState = {
    limitOf: new Map(),
    finals: new Map(),
    suites: new Map(),
    settled: new Map(),
    stopAt: new Map(),
    lastLook: undefined,
  };
  const firstLook = Math.min(design.minRounds, lastRound);
  for (let k = firstLook; k <= lastRound; k++) {
    const look = analyseLook(series, order, settings, (id) => state.limitOf.get(id) ?? k);
    // A run that ended before min rounds had no look yet: its one analysis spends what the
    // looks up to that round would have (lookWeight of k ≤ min is A(k/max)).
    const step: LookStep = { k, weight: lookWeight(design, k), firstLook };
    foldLook(state, look, step);
    // Nothing open: a run stops here, so a replay on more rounds (a custom harness that ran
    // whole, compare on a recording) stops too — later looks would see the same data.
    if (!settleLook(state, step, settings, design)) break;
  }
  const active = closeReplay(state);
  const { finals, settled } = state;
  const outlook = withOutlook ? outlooks(active, finals, state.lastLook, design) : new Map();
  return { finals, suites: [...state.suites.values()], active, settled, lastRound, outlook };
}

/**
 * The open benchmarks' outlooks, projected from the last look (only the runner's plan reads
 * them, so compare's replay does not compute them).
 */
function outlooks(
  active: ReadonlySet<string>,
  finals: ReadonlyMap<string, FinalLook>,
  last: LookContext | undefined,
  design: SequentialDesign,
): Map<string, Outlook> {
  const out = new Map<string, Outlook>();
  if (last === undefined) return out;
  const context = { ...last, weight: (n: number) => lookWeight(design, n) };
  for (const id of active) {
    const look = finals.get(id)?.look;
    if (look?.kind === "tested") out.set(id, outlookOf(look, context));
  }
  return out;
}

/** A single look of weight 1 (fixed rounds, unpaired runs) as every benchmark's final look. */
export function oneLook(look: Look): { finals: Map<string, FinalLook>; suites: FinalSuite[] } {
  const finals = new Map<string, FinalLook>();
  for (const [id, b] of look.benchmarks)
    finals.set(id, {
      look: b,
      pUp: b.kind === "tested" ? b.pUp : 1,
      pDown: b.kind === "tested" ? b.pDown : 1,
      weight: 1,
      stop: undefined,
    });
  const suites: FinalSuite[] = look.suites.map((s) => ({
    look: s,
    pUp: s.shift?.pUp ?? 1,
    pDown: s.shift?.pDown ?? 1,
    weight: 1,
  }));
  return { finals, suites };
}

/** The final looks of every benchmark: one look of weight 1 for a fixed design. */
export function finalLooks(
  series: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
  settings: CompareSettings,
  design: SequentialDesign | undefined,
): { finals: Map<string, FinalLook>; suites: FinalSuite[] } {
  if (design !== undefined)
    return replayByShard(series, order, (s, o) => replay(s, o, settings, design));
  return oneLook(analyseLook(series, order, settings));
}

/** How progress lines and the report name a stop. */
export const STOP_LABEL: Readonly<Record<StopReason, string>> = {
  regressed: "regressed",
  improved: "improved",
  "ruled-out": "ruled out",
  futile: "futile",
  "max-rounds": "at max rounds",
  "time-budget": "out of time",
  "not-measured": "not measured",
  fixed: "fixed",
};

/** After a round from min on: which benchmarks the next round measures. */
export function planNextRound(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
  settings: CompareSettings,
  design: SequentialDesign,
): NextRound {
  const paired = pairSummaries(base, head, { unpaired: false });
  // Exact counts are settled by their rounds agreeing (counts.ts), not by the stopping rule.
  const exact = settleCounts(paired.series, settings, () => ({
    threshold: settings.countThreshold,
    noiseFloor: settings.countNoiseFloor,
  })).decided;
  const timed = paired.series.filter((s) => !exact.has(s.id));
  const r = replayByShard(timed, paired.order, (s, o) => replay(s, o, settings, design, true));
  const settled = new Map(r.settled);
  // Secondary counts run with their primary one and are not counted as benchmarks.
  const primary = [...exact].filter(([, d]) => !d.series.secondary);
  for (const [id, d] of primary)
    settled.set(
      id,
      d.verdict === "regressed" ? "regressed" : d.verdict === "improved" ? "improved" : "ruled-out",
    );
  const total = r.finals.size + primary.length;
  // A secondary series (a server's peak memory beside its load) runs whenever its benchmark's
  // suite does and never fails the gate by itself: it keeps no round going on its own.
  const secondary = new Set(timed.filter((x) => x.secondary).map((x) => x.id));
  const active =
    r.lastRound >= design.maxRounds
      ? new Set<string>()
      : new Set([...r.active].filter((id) => !secondary.has(id)));
  const counts = new Map<StopReason, number>();
  for (const reason of settled.values()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${STOP_LABEL[reason]}`);
  const line =
    `after round ${r.lastRound}: ${active.size} of ${total} benchmark${total === 1 ? "" : "s"} still open` +
    (parts.length > 0 ? ` (${parts.join(", ")})` : "");
  const outlook = new Map([...r.outlook].filter(([id]) => active.has(id)));
  return { active, settled, line, outlook };
}
