// After each round of `benchgate run`: whether another round runs, and what it runs. Fixed rounds
// run everything until the count is reached. With `rounds: auto` the first min-rounds rounds run
// everything; after each later round the statistics core looks at the summaries so far, and the
// next round runs only the benchmarks still open, until none is left, max-rounds is reached or
// the time budget would be exceeded. Every stop says why in a progress line.
import type { SuitePlan } from "../config/run-config.ts";
import type { NextRound } from "../core/sequential.ts";
import type { Progress } from "./progress.ts";
import { plural, quoteIds } from "./rounds-state.ts";
import type { RoundLedger, RoundsRun } from "./rounds-state.ts";
import type { RoundPlan } from "./round-plan.ts";
import {
  budgetStop,
  estimateRoundMs,
  narrowSuites,
  type NarrowedRound,
  type SuiteTime,
} from "./sequential-rounds.ts";

/** When the rounds and the round just finished started, and its suites' times. */
export interface RoundTimes {
  readonly roundsStarted: number;
  readonly roundStarted: number;
  readonly thisRound: ReadonlyMap<string, SuiteTime>;
}

/** A round that has run: its number and plan, and its times. */
export interface FinishedRound {
  readonly round: number;
  readonly plan: RoundPlan;
  readonly times: RoundTimes;
}

/**
 * Whether the next round would overrun the time budget, estimated from each suite's latest run
 * scaled to its open benchmarks, plus the rest of the round just finished.
 */
function overBudget(
  budgetMs: number,
  finished: FinishedRound,
  next: { readonly look: NextRound; readonly narrowed: NarrowedRound },
  run: RoundsRun,
  ledger: RoundLedger,
): boolean {
  const { look, narrowed } = next;
  const { clock, progress } = run.deps;
  const { roundsStarted, roundStarted, thisRound } = finished.times;
  const openIn = (suite: SuitePlan): number =>
    narrowed.unfiltered.includes(suite.name)
      ? Number.POSITIVE_INFINITY
      : suite.kind === "hyperfine"
        ? suite.commands.length
        : [...look.active].filter((id) => ledger.suiteOf.get(id) === suite.name).length;
  const roundMs = clock.now() - roundStarted;
  const suitesMs = [...thisRound.values()].reduce((sum, t) => sum + t.ms, 0);
  const estimate = estimateRoundMs(narrowed.run, openIn, ledger.latest, roundMs - suitesMs);
  const why = budgetStop(budgetMs, clock.now() - roundsStarted, estimate);
  if (why === undefined) return false;
  progress.line(
    `stopping after round ${finished.round}: ${why} (estimated from each suite's latest run); ${plural(look.active.size, "benchmark")} still open`,
  );
  return true;
}

/** Says what the next round runs, and which suites it cannot narrow to their open benchmarks. */
function announce(round: number, narrowed: NarrowedRound, progress: Progress): void {
  for (const name of narrowed.unfiltered)
    progress.warn(
      `suite ${name}: its open benchmarks' ids make a filter too long for one argument (or one is not valid Unicode); it runs with its own filter and only the open benchmarks are kept`,
    );
  progress.line(
    `round ${round + 1} runs ${narrowed.run.map((s) => s.name).join(", ")}${narrowed.skipped.length === 0 ? "" : `; skipped (all settled): ${narrowed.skipped.join(", ")}`}`,
  );
}

/**
 * The look after a round from min-rounds on: the open benchmarks, narrowed to what measures
 * them; undefined when the rounds stop (nothing open, nothing to measure it, no time left).
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
  const look = planNext(ledger.written.base, ledger.written.head);
  progress.line(look.line);
  if (look.active.size === 0) {
    progress.line(`stopping after round ${round}: every benchmark is settled`);
    return undefined;
  }
  const narrowed = narrowSuites(run.request.config.suites, look.active, ledger.suiteOf);
  if (narrowed.run.length === 0) {
    // The core named only ids no suite of this run produced: nothing could measure them.
    progress.warn(
      `stopping after round ${round}: no suite measures the ${plural(look.active.size, "open benchmark")} (${quoteIds([...look.active])})`,
    );
    return undefined;
  }
  if (
    timeBudgetMs !== undefined &&
    overBudget(timeBudgetMs, finished, { look, narrowed }, run, ledger)
  )
    return undefined;
  announce(round, narrowed, progress);
  return { suites: narrowed.run, active: look.active };
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
  if (round >= config.rounds) {
    if (sequential !== undefined)
      run.deps.progress.line(
        `stopping after round ${round}: max-rounds reached, ${plural(plan.active?.size ?? ledger.suiteOf.size, "benchmark")} still open`,
      );
    return undefined;
  }
  if (sequential === undefined || planNext === undefined || round < sequential.minRounds)
    return plan;
  return narrowToOpen(finished, planNext, sequential.timeBudgetMs, run, ledger);
}
