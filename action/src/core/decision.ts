// From each benchmark's final look to its verdict. Benjamini–Hochberg runs over every benchmark of
// every suite plus each suite's shift (a change that slowed the whole suite is one more
// hypothesis); a regression needs significance against the noise floor δ0 *and* an estimate of
// at least the fail threshold. With sequential rounds each look spends a share `weight` of the
// error rate: p-values are divided by it and intervals widened to level 1 − (1 − confidence)·weight
// (fixed rounds: one look, weight 1).
import { formatPercent } from "../number-text.ts";
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, Observation } from "./pairing.ts";
import type { SuiteLook, TestedLook } from "./look-analysis.ts";
import {
  adjustAll,
  thresholds,
  type FinalLook,
  type FinalSuite,
  type Stop,
  type Thresholds,
} from "./final-look.ts";
import { tQuantile } from "./distributions.ts";
import { medianInterval } from "./statistics.ts";
import { halfWidth, judge, type Outcome } from "./verdict-rule.ts";

type Verdict = "regressed" | "improved" | "unchanged" | "inconclusive" | "new" | "missing";

export interface Decision {
  readonly series: BenchmarkSeries;
  readonly verdict: Verdict;
  /** Paired rounds used. */
  readonly rounds: number;
  /** Slowdown on the log scale (positive = worse). */
  readonly estimate: number | undefined;
  /** Confidence interval of the slowdown on the log scale. */
  readonly interval: readonly [number, number] | undefined;
  readonly p: number | undefined;
  readonly q: number | undefined;
  /** Minimum detectable slowdown on the log scale. */
  readonly mde: number | undefined;
  readonly sd: { own: number | undefined; used: number | undefined; df: number | undefined };
  readonly unverified: boolean;
  readonly stop: Stop | undefined;
  readonly notes: readonly string[];
}

export interface SuiteDecision {
  readonly look: SuiteLook;
  readonly shift:
    | {
        readonly estimate: number;
        readonly interval: readonly [number, number];
        readonly p: number;
        readonly q: number;
        readonly verdict: "regressed" | "improved" | "unchanged" | "inconclusive";
      }
    | undefined;
}

export interface SuiteAnalysis {
  readonly decisions: readonly Decision[];
  readonly suites: readonly SuiteDecision[];
  /** history and aba: one run per side, with the noise learnt elsewhere (compare-summaries.ts). */
  readonly mode: "rounds" | "single-run" | "history" | "aba";
}

export function untested(
  series: BenchmarkSeries,
  verdict: "new" | "missing" | "inconclusive",
  notes: readonly string[] = [],
): Decision {
  return {
    series,
    verdict,
    rounds: 0,
    estimate: undefined,
    interval: undefined,
    p: undefined,
    q: undefined,
    mde: undefined,
    sd: { own: undefined, used: undefined, df: undefined },
    unverified: false,
    stop: undefined,
    notes,
  };
}

/** The report's name of an outcome of the verdict rule. */
const VERDICT = {
  regressed: "regressed",
  improved: "improved",
  "ruled-out": "unchanged",
  open: "inconclusive",
} as const satisfies Record<Outcome, Verdict>;

function tested(
  t: TestedLook,
  f: FinalLook,
  q: { up: number; down: number },
  m: number,
  settings: CompareSettings,
  c: Thresholds,
): Decision {
  const h = halfWidth(settings, f.weight, t.df, t.se);
  const lo = t.estimate - h;
  const hi = t.estimate + h;
  // 80 %-power detectable slowdown at the level BH applies to a lone true regression (q/m, and
  // this look's share of it), large enough that the estimate also clears the fail threshold.
  const zAlpha = tQuantile(1 - (settings.q * f.weight) / m, t.df);
  const zBeta = tQuantile(settings.power, t.df);
  const mde = Math.max(
    c.logFloor + (zAlpha + zBeta) * t.se,
    c.logFail + zBeta * t.se,
    t.mdeFloor ?? 0,
  );
  const verdict = VERDICT[judge({ estimate: t.estimate, upper: hi }, q, settings, c.logFail)];
  return {
    series: t.series,
    verdict,
    rounds: t.rounds,
    estimate: t.estimate,
    interval: [lo, hi],
    // A sequential p-value is p/w at its best look: capped at 1 like any p-value.
    p: Math.min(1, t.estimate >= 0 ? f.pUp : f.pDown),
    q: t.estimate >= 0 ? q.up : q.down,
    mde,
    sd: t.sd,
    unverified: false,
    stop: f.stop,
    notes: t.notes,
  };
}

/** Log-scale half-width of a within-run interval of one side's statistic, as a standard error. */
function withinRunSe(o: Observation, z: number): number | undefined {
  const iv = medianInterval(o.samples, z) ?? o.interval;
  if (iv === undefined || !(iv.lower > 0) || !(iv.upper > 0)) return undefined;
  return (Math.log(iv.upper) - Math.log(iv.lower)) / (2 * z);
}

/**
 * One run per side and nothing to borrow a variance from: the run-to-run noise is unknown, so
 * the within-run interval is only a lower bound on uncertainty. The result is labelled
 * unverified and can only fail on a large practical threshold.
 */
function singleRun(
  series: BenchmarkSeries,
  rounds: { base: number; head: number },
  mu: number,
  c: Thresholds,
  notes: readonly string[],
): Decision {
  const seB = withinRunSe(series.base.get(rounds.base) as Observation, c.zCi);
  const seH = withinRunSe(series.head.get(rounds.head) as Observation, c.zCi);
  const se = seB !== undefined && seH !== undefined ? Math.hypot(seB, seH) : undefined;
  const clearsNoise = (x: number): boolean => se === undefined || x - c.zCi * se > c.logFloor;
  let verdict: Verdict = "unchanged";
  if (mu >= c.logUnverified && clearsNoise(mu)) verdict = "regressed";
  else if (-mu >= c.logUnverified && clearsNoise(-mu)) verdict = "improved";
  return {
    series,
    verdict,
    rounds: 1,
    estimate: mu,
    interval: se === undefined ? undefined : [mu - c.zCi * se, mu + c.zCi * se],
    p: undefined,
    q: undefined,
    mde: undefined,
    sd: { own: undefined, used: se, df: undefined },
    unverified: true,
    stop: undefined,
    notes: [...notes, "one run per side: run-to-run noise unknown, interval is within-run only"],
  };
}

/**
 * One run per side judged with a noise learnt elsewhere (the history) may be stricter than the
 * single-run rule, never weaker: whatever that rule would fail still fails. The history's noise
 * can be wrong in the direction that hides a regression (a record of a disturbed job that the
 * fence missed, another machine's runs), and a user who adds a history must never get a gate
 * that passes what the gate without it fails.
 */
export function singleRunFloor(d: Decision, settings: CompareSettings): Decision {
  if (d.verdict === "regressed" || d.unverified || d.estimate === undefined) return d;
  const round = [...d.series.base.keys()].find((r) => d.series.head.has(r));
  if (round === undefined) return d;
  const alone = singleRun(
    d.series,
    { base: round, head: round },
    d.estimate,
    thresholds(settings),
    [],
  );
  if (alone.verdict !== "regressed") return d;
  return {
    ...d,
    verdict: "regressed",
    notes: [
      ...d.notes,
      `failed by the single-run rule (a slowdown of ${formatPercent(Math.expm1(d.estimate))}, beyond the unverified threshold of ${formatPercent(settings.unverifiedThreshold)} and the within-run interval): a history adds strictness, never removes it`,
    ],
  };
}

/** Every benchmark's verdict from its final look (in the order of `all`). */
export function decide(
  all: readonly BenchmarkSeries[],
  finals: ReadonlyMap<string, FinalLook>,
  suites: readonly FinalSuite[],
  settings: CompareSettings,
): SuiteAnalysis {
  const c = thresholds(settings);
  const list = [...finals.values()];
  const tests = list.filter((f) => f.look.kind === "tested");
  const withShift = suites.filter((s) => s.look.shift !== undefined);
  const q = adjustAll(list, suites);
  const m = Math.max(1, tests.length + withShift.length);
  const decisions = new Map<string, Decision>();
  tests.forEach((f, i) => {
    const t = f.look as TestedLook;
    decisions.set(
      t.series.id,
      tested(t, f, { up: q.up[i] as number, down: q.down[i] as number }, m, settings, c),
    );
  });
  for (const f of list) {
    const look = f.look;
    if (look.kind === "single-run")
      decisions.set(
        look.series.id,
        singleRun(look.series, look.rounds, look.estimate, c, look.notes),
      );
    else if (look.kind === "no-pair")
      decisions.set(look.series.id, untested(look.series, "inconclusive", look.notes));
  }
  const suiteDecisions: SuiteDecision[] = suites.map((s) => {
    const shift = s.look.shift;
    if (shift === undefined) return { look: s.look, shift: undefined };
    const i = tests.length + withShift.indexOf(s);
    const up = q.up[i] as number;
    const down = q.down[i] as number;
    const h = halfWidth(settings, s.weight, shift.df, shift.se);
    const interval = [shift.estimate - h, shift.estimate + h] as const;
    const verdict =
      VERDICT[
        judge({ estimate: shift.estimate, upper: interval[1] }, { up, down }, settings, c.logFail)
      ];
    const positive = shift.estimate >= 0;
    return {
      look: s.look,
      shift: {
        estimate: shift.estimate,
        interval,
        p: positive ? s.pUp : s.pDown,
        q: positive ? up : down,
        verdict,
      },
    };
  });
  const ordered = all.map(
    (s) => decisions.get(s.id) ?? untested(s, s.base.size === 0 ? "new" : "missing"),
  );
  const replicated = tests.length > 0;
  return { decisions: ordered, suites: suiteDecisions, mode: replicated ? "rounds" : "single-run" };
}
