// After each round of `benchgate run`: whether another round runs, and what it runs. Fixed rounds
// run everything until the count is reached. With `rounds: auto` the first min-rounds rounds run
// everything; after each later round the statistics core looks at the summaries so far, and the
// next round runs only the benchmarks still open, until none is left or max-rounds is reached.
// With a time budget (counted from the start of the run, builds included) each round also says
// how much of it is used and how many benchmarks are open; when the time left cannot give every
// open benchmark the rounds it needs, the next round runs those it can settle, first those that
// could fail the gate (round-budget.ts), and when not one fits the rounds stop.
// Every stop says why in a progress line.
import type { NextRound } from "../core/sequential.ts";
import type { Progress } from "./progress.ts";
import { formatDuration } from "./progress.ts";
import { plural, quoteIds } from "./rounds-state.ts";
import type { RoundLedger, RoundsRun } from "./rounds-state.ts";
import type { RoundPlan } from "./round-plan.ts";
import { narrowSuites, type NarrowedRound, type SuiteTime } from "./sequential-rounds.ts";
import { pairUnits } from "./pair-units.ts";
import {
  budgetStop,
  pairGroups,
  planRound,
  suiteGroups,
  type CostGroup,
  type FittedRound,
} from "./round-budget.ts";

/** When the round just finished started, and its suites' times. */
interface RoundTimes {
  readonly roundStarted: number;
  readonly thisRound: ReadonlyMap<string, SuiteTime>;
}

/** A round that has run: its number and plan, and its times. */
interface FinishedRound {
  readonly round: number;
  readonly plan: RoundPlan;
  readonly times: RoundTimes;
}

/** "round 6 · 4:12 of 15:00 used · 9 of 88 open". */
function budgetLine(
  round: number,
  budgetMs: number,
  open: { readonly now: number; readonly of: number },
  progress: Progress,
): string {
  const used = `${formatDuration(progress.elapsedMs())} of ${formatDuration(budgetMs)} used`;
  return `round ${round} · ${used} · ${open.now} of ${open.of} open`;
}

/**
 * After round 1: whether the first min-rounds rounds, which always run, will by themselves
 * overrun the budget; said once, with what to do.
 */
function warnMinRoundsOverrun(
  finished: FinishedRound,
  minRounds: number,
  budgetMs: number,
  run: RoundsRun,
): void {
  if (finished.round !== 1 || minRounds < 2) return;
  const { clock, progress } = run.deps;
  const roundMs = clock.now() - finished.times.roundStarted;
  const projected = progress.elapsedMs() + (minRounds - 1) * roundMs;
  if (projected <= budgetMs) return;
  progress.warn(
    `the first ${minRounds} rounds alone will take about ${formatDuration(projected)} (round 1 took ${formatDuration(roundMs)}), more than the time budget of ${formatDuration(budgetMs)}; they run anyway, since fewer rounds cannot give a verified verdict. To fit: shorter processes (process-time, or bench code that does not set its own times), fewer benchmarks (a suite filter), or a larger time-budget`,
  );
}

/** The open benchmarks' cost groups in the next round, as its schedule runs them. */
function costGroups(next: NarrowedRound, look: NextRound, run: RoundsRun, ledger: RoundLedger) {
  const byId = new Map<string, string[]>();
  for (const id of look.active) {
    const suite = ledger.suiteOf.get(id);
    if (suite !== undefined) byId.set(suite, [...(byId.get(suite) ?? []), id]);
  }
  const openOf = (suite: string): readonly string[] => byId.get(suite) ?? [];
  if (run.pairs === undefined) return suiteGroups(next.run, openOf, next.unfiltered, ledger);
  const units = pairUnits({ suites: next.run, active: look.active }, run.pairs);
  return pairGroups(units, openOf, ledger);
}

/**
 * What the next round can run within the budget: every open benchmark, those the time left can
 * settle (round-budget.ts's plan), or (undefined) none, said in a progress line with the estimate.
 */
function fitToBudget(
  budgetMs: number,
  finished: FinishedRound,
  next: { readonly look: NextRound; readonly narrowed: NarrowedRound },
  run: RoundsRun,
  ledger: RoundLedger,
): FittedRound | undefined {
  const { look, narrowed } = next;
  const { clock, progress } = run.deps;
  const { roundStarted, thisRound } = finished.times;
  const groups: CostGroup[] = costGroups(narrowed, look, run, ledger);
  const roundMs = clock.now() - roundStarted;
  const processesMs = [...thisRound.values()].reduce((sum, t) => sum + t.ms, 0);
  const usedMs = progress.elapsedMs();
  const fitted = planRound(groups, (id) => look.outlook?.get(id), {
    overheadMs: roundMs - processesMs,
    leftMs: budgetMs - usedMs,
    roundsLeft: run.request.config.rounds - finished.round,
  });
  if (fitted !== undefined) return fitted;
  const allMs = groups.reduce((sum, g) => sum + g.ms, Math.max(0, roundMs - processesMs));
  const basis =
    run.pairs === undefined
      ? "each suite's latest run"
      : "each benchmark's latest pair of processes";
  progress.line(
    `stopping after round ${finished.round}: ${budgetStop(budgetMs, usedMs, allMs)}, and not one open benchmark fits (estimated from ${basis}); ${plural(look.active.size, "benchmark")} still open`,
  );
  return undefined;
}

/**
 * Says what the next round runs, and which suites it cannot narrow to their open benchmarks;
 * `cut`: the time budget left some open benchmarks out.
 */
function announce(round: number, narrowed: NarrowedRound, progress: Progress, cut: boolean): void {
  for (const name of narrowed.unfiltered)
    progress.warn(
      `suite ${name}: its open benchmarks' ids make a filter too long for one argument (or one is not valid Unicode); it runs with its own filter and only the open benchmarks are kept`,
    );
  progress.line(
    `round ${round + 1} runs ${narrowed.run.map((s) => s.name).join(", ")}${narrowed.skipped.length === 0 ? "" : `; skipped (${cut ? "settled, or left out by the time budget" : "all settled"}): ${narrowed.skipped.join(", ")}`}`,
  );
}

/**
 * The look after a round from min-rounds on: the open benchmarks, narrowed to what measures
 * them (and to what fits in the time budget); undefined when the rounds stop (nothing open,
 * nothing to measure it, no time left).
 */
function narrowToOpen(
  finished: FinishedRound,
  planNext: NonNullable<RoundsRun["request"]["planNext"]>,
  timeBudgetMs: number | undefined,
  run: RoundsRun,
  ledger: RoundLedger,
): RoundPlan | undefined {
  const { round } = finished;
  const { progress } = run.deps;
  const { suites } = run.request.config;
  const look = planNext(ledger.written.base, ledger.written.head);
  progress.line(look.line);
  if (timeBudgetMs !== undefined)
    progress.line(
      budgetLine(round, timeBudgetMs, { now: look.active.size, of: ledger.suiteOf.size }, progress),
    );
  if (look.active.size === 0) {
    progress.line(`stopping after round ${round}: every benchmark is settled`);
    return undefined;
  }
  let narrowed = narrowSuites(suites, look.active, ledger.suiteOf);
  if (narrowed.run.length === 0) {
    // The core named only ids no suite of this run produced: nothing could measure them.
    progress.warn(
      `stopping after round ${round}: no suite measures the ${plural(look.active.size, "open benchmark")} (${quoteIds([...look.active])})`,
    );
    return undefined;
  }
  let active: ReadonlySet<string> = look.active;
  if (timeBudgetMs !== undefined) {
    const fitted = fitToBudget(timeBudgetMs, finished, { look, narrowed }, run, ledger);
    if (fitted === undefined) return undefined;
    if (!fitted.whole) {
      active = fitted.ids;
      narrowed = narrowSuites(suites, active, ledger.suiteOf);
      progress.line(
        `round ${round + 1} runs ${active.size} of the ${plural(look.active.size, "open benchmark")} (~${formatDuration(fitted.ms)}): those the ${formatDuration(timeBudgetMs - progress.elapsedMs())} left can settle, first those that could fail the gate (${quoteIds([...active])}); the other ${look.active.size - active.size} stop here, out of time`,
      );
    }
  }
  announce(round, narrowed, progress, active !== look.active);
  return { suites: narrowed.run, active };
}

/** What the round after `finished` runs, or undefined when the rounds stop here. */
export function nextRound(
  finished: FinishedRound,
  run: RoundsRun,
  ledger: RoundLedger,
): RoundPlan | undefined {
  const { round, plan } = finished;
  const { config, planNext } = run.request;
  const { sequential } = config;
  const budgetMs = sequential?.timeBudgetMs;
  if (round >= config.rounds) {
    if (sequential !== undefined)
      run.deps.progress.line(
        `stopping after round ${round}: max-rounds reached, ${plural(plan.active?.size ?? ledger.suiteOf.size, "benchmark")} still open`,
      );
    return undefined;
  }
  if (sequential === undefined || planNext === undefined || round < sequential.minRounds) {
    if (sequential !== undefined && budgetMs !== undefined) {
      const all = { now: ledger.suiteOf.size, of: ledger.suiteOf.size };
      run.deps.progress.line(
        `${budgetLine(round, budgetMs, all, run.deps.progress)} (the first look is after round ${sequential.minRounds})`,
      );
      warnMinRoundsOverrun(finished, sequential.minRounds, budgetMs, run);
    }
    return plan;
  }
  return narrowToOpen(finished, planNext, budgetMs, run, ledger);
}
