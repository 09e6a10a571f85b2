// The runner's half of sequential rounds (`rounds: auto`): after a look, the statistics core
// says which benchmarks are still open; this turns that set of ids into what the next round runs
// (each suite kind narrows its own plan: Criterion by an exact-id filter, hyperfine by command,
// custom harnesses whole or not at all); the time budget's part is round-budget.ts. Pure: ids and
// plans in, plans out.
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
