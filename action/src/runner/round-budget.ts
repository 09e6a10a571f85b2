// The time budget of sequential rounds (`rounds: auto` with `time-budget`), counted from the start
// of the run, builds included: after each look, what the next round would cost, from what each
// open benchmark's processes took last time (schedule: pairs) or each suite's share (schedule:
// suite); and when the whole round does not fit in what is left, the open benchmarks that do.
// Pure: costs in, the benchmarks to run out.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { PairUnit } from "./pair-units.ts";
import type { SuiteTime } from "./sequential-rounds.ts";

/** Benchmarks that run together (one unit, or a suite that runs whole) and what they cost. */
export interface CostGroup {
  readonly ids: readonly string[];
  readonly ms: number;
}

/** What the ledger knows of past rounds' costs. */
export interface PastCosts {
  /** Each suite's latest run, both sides. */
  readonly latest: ReadonlyMap<string, SuiteTime>;
  /** Each benchmark's latest base and head processes together (pairs). */
  readonly idMs: ReadonlyMap<string, number>;
}

/** A suite's latest time per benchmark: the estimate for a benchmark not measured alone yet. */
function perBenchmarkMs(suite: string, past: PastCosts): number {
  const time = past.latest.get(suite);
  return time === undefined || time.benchmarks === 0 ? 0 : time.ms / time.benchmarks;
}

/**
 * schedule: suite: each suite's open benchmarks at its latest time per benchmark; a suite that
 * runs whole (custom, divan, gungraun, load, or a filter too long to write) costs its whole run.
 */
export function suiteGroups(
  next: readonly SuitePlan[],
  openOf: (suite: string) => readonly string[],
  unfiltered: readonly string[],
  past: PastCosts,
): CostGroup[] {
  return next.flatMap((suite) => {
    const ids = openOf(suite.name);
    const whole = suiteKind(suite).runsWhole === true || unfiltered.includes(suite.name);
    if (whole) return [{ ids, ms: past.latest.get(suite.name)?.ms ?? 0 }];
    const each = perBenchmarkMs(suite.name, past);
    return ids.map((id) => ({ ids: [id], ms: each }));
  });
}

/**
 * schedule: pairs: each unit at what its benchmarks' latest pair of processes took (a benchmark
 * never measured alone: its suite's time per benchmark); a whole suite at its latest run.
 */
export function pairGroups(
  units: readonly PairUnit[],
  openOf: (suite: string) => readonly string[],
  past: PastCosts,
): CostGroup[] {
  return units.map((unit) => {
    const suite = unit.plan.name;
    if (unit.ids === undefined) return { ids: openOf(suite), ms: past.latest.get(suite)?.ms ?? 0 };
    const ms = unit.ids.reduce(
      (sum, id) => sum + (past.idMs.get(id) ?? perBenchmarkMs(suite, past)),
      0,
    );
    return { ids: unit.ids, ms };
  });
}

/** What the next round runs within the budget, and what it should take. */
export interface FittedRound {
  readonly ids: ReadonlySet<string>;
  readonly ms: number;
  /** Every group fits: the whole round runs. */
  readonly whole: boolean;
}

/**
 * The whole round when it fits in `leftMs`; else the groups that fit, cheapest first; undefined
 * when not even the cheapest does. Cheapest first because the look (core/sequential.ts's
 * NextRound) says which benchmarks are open, not which is closest to being settled: this gives
 * the most open benchmarks one more round in the time left. `overheadMs` is what a round costs
 * besides its processes (fingerprints, summaries).
 */
export function fitRound(
  groups: readonly CostGroup[],
  overheadMs: number,
  leftMs: number,
): FittedRound | undefined {
  const overhead = Math.max(0, overheadMs);
  const total = groups.reduce((sum, g) => sum + g.ms, overhead);
  if (total <= leftMs)
    return { ids: new Set(groups.flatMap((g) => g.ids)), ms: total, whole: true };
  const chosen: CostGroup[] = [];
  let ms = overhead;
  for (const group of [...groups].sort((a, b) => a.ms - b.ms)) {
    if (ms + group.ms > leftMs) break;
    chosen.push(group);
    ms += group.ms;
  }
  if (chosen.length === 0) return undefined;
  return { ids: new Set(chosen.flatMap((g) => g.ids)), ms, whole: false };
}

/** "time budget: the next round would take ~N s, M s of the B s budget left". */
export function budgetStop(budgetMs: number, usedMs: number, nextMs: number): string {
  const s = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;
  return `time budget: the next round would take ~${s(nextMs)}, ${s(budgetMs - usedMs)} of the ${s(budgetMs)} budget left`;
}
