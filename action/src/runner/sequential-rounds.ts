// The runner's half of sequential rounds (`rounds: auto`): after a look, the statistics core
// says which benchmarks are still open; this turns that set of ids into what the next round runs
// (each suite kind narrows its own plan: Criterion by an exact-id filter, hyperfine by command,
// custom harnesses whole or not at all), and estimates that round's time for the time budget.
// Pure: ids and plans in, plans out.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { NextRound } from "../core/sequential.ts";

/** The core's look, bound to the run's settings and design: summaries so far → next round. */
export type RoundPlanner = (
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
) => NextRound;

export interface NarrowedRound {
  /** The suites to run, in config order, each narrowed to its open benchmarks where it can be. */
  readonly run: readonly SuitePlan[];
  /** Names of the suites with no open benchmark: not run this round. */
  readonly skipped: readonly string[];
  /**
   * Suites that could not be narrowed to their open benchmarks (a Criterion filter too long to
   * write, or an id that is not valid Unicode): they run with their own filter.
   */
  readonly unfiltered: readonly string[];
}

/**
 * What one round after a look runs. `suiteOf` maps every benchmark id measured so far to its
 * suite's name (ids are unique across suites). A custom harness cannot be narrowed: it runs
 * whole while any of its benchmarks is open.
 */
export function narrowSuites(
  suites: readonly SuitePlan[],
  active: ReadonlySet<string>,
  suiteOf: ReadonlyMap<string, string>,
): NarrowedRound {
  const open = new Map<string, string[]>();
  for (const id of active) {
    const suite = suiteOf.get(id);
    if (suite !== undefined) open.set(suite, [...(open.get(suite) ?? []), id]);
  }
  const run: SuitePlan[] = [];
  const skipped: string[] = [];
  const unfiltered: string[] = [];
  for (const suite of suites) {
    const narrowed = suiteKind(suite).narrow(suite, { ids: open.get(suite.name) ?? [], active });
    if (narrowed === undefined) skipped.push(suite.name);
    else {
      if (narrowed.unfiltered === true) unfiltered.push(suite.name);
      run.push(narrowed.plan);
    }
  }
  return { run, skipped, unfiltered };
}

/** One suite's latest run on both sides of a round: how long, and how many benchmarks it gave. */
export interface SuiteTime {
  readonly ms: number;
  readonly benchmarks: number;
}

/**
 * The next round's expected time: each suite's latest time, scaled by the share of its
 * benchmarks that run again (a custom harness always runs whole), plus the rest of the latest
 * round (fingerprints, summaries).
 */
export function estimateRoundMs(
  next: readonly SuitePlan[],
  openIn: (suite: SuitePlan) => number,
  latest: ReadonlyMap<string, SuiteTime>,
  overheadMs: number,
): number {
  let ms = Math.max(0, overheadMs);
  for (const suite of next) {
    const time = latest.get(suite.name);
    if (time === undefined) continue;
    const share =
      suiteKind(suite).runsWhole === true || time.benchmarks === 0
        ? 1
        : Math.min(1, openIn(suite) / time.benchmarks);
    ms += time.ms * share;
  }
  return ms;
}

/**
 * Why the time budget stops the run before the next round, or undefined when that round fits.
 * `usedMs` is what the rounds took so far.
 */
export function budgetStop(budgetMs: number, usedMs: number, nextMs: number): string | undefined {
  if (usedMs + nextMs <= budgetMs) return undefined;
  const s = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;
  return `time budget: the next round would take ~${s(nextMs)}, ${s(budgetMs - usedMs)} of the ${s(budgetMs)} budget left`;
}
