// The time budget of sequential rounds (`rounds: auto` with `time-budget`), counted from the start
// of the run, builds included: after each look, what the next round would cost, from what each
// open benchmark's processes took last time (schedule: pairs) or each suite's share (schedule:
// suite); and when the time left cannot give every open benchmark the rounds it needs, a plan
// of who gets it (planRound). Pure: costs and outlooks in, the benchmarks to run out.
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
interface PastCosts {
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
  /** Every group runs: the whole round. */
  readonly whole: boolean;
}

/** An open benchmark's outlook as the plan reads it (core/settle-outlook.ts). */
export interface PlanOutlook {
  readonly rounds: number;
  readonly settleAt: number | undefined;
  readonly couldFail: boolean;
}

/** A group as the plan ranks it: rounds it still needs, and its tier. */
interface Ranked {
  readonly group: CostGroup;
  /** More rounds until its most promising benchmark would be settled; undefined: none would. */
  readonly need: number | undefined;
  /** 0: could fail the gate and can be settled; 1: can be settled; 2: neither. */
  readonly tier: 0 | 1 | 2;
  /** One of its benchmarks could fail the gate (or is kept open for a claim). */
  readonly couldFail: boolean;
}

/**
 * A group runs for its most promising benchmark: the fewest rounds any of its benchmarks needs.
 * A benchmark without an outlook (kept open for a claim) is treated as settled by one more round
 * that could fail the gate: the claim's answer is what it runs for.
 */
function rank(group: CostGroup, outlook: (id: string) => PlanOutlook | undefined): Ranked {
  let need: number | undefined;
  let couldFail = false;
  for (const id of group.ids) {
    const o = outlook(id);
    const more = o === undefined ? 1 : o.settleAt === undefined ? undefined : o.settleAt - o.rounds;
    couldFail ||= o === undefined || o.couldFail;
    if (more !== undefined && (need === undefined || more < need)) need = more;
  }
  return { group, need, tier: need === undefined ? 2 : couldFail ? 0 : 1, couldFail };
}

/**
 * What the next round runs within the `leftMs` left of the budget (`overheadMs`: what a round
 * costs besides its processes; `roundsLeft`: rounds until max rounds).
 *
 * When every open benchmark can have the rounds it needs (or all rounds left, if no number of
 * rounds would settle it), the whole round runs. Otherwise the time is planned: first the
 * benchmarks that could fail the gate and would be settled within max rounds, then those that
 * would be settled, each tier cheapest to settle first (its rounds still needed × its cost per
 * round), as long as all their rounds fit; then, from what the plan leaves, one more round for
 * the others, those that could fail the gate first, then cheapest first. So the time goes where it decides something, first where it
 * decides the gate, instead of one more round for everybody until the budget runs out.
 * Undefined when not one group fits in this round.
 */
export function planRound(
  groups: readonly CostGroup[],
  outlook: (id: string) => PlanOutlook | undefined,
  budget: { readonly overheadMs: number; readonly leftMs: number; readonly roundsLeft: number },
): FittedRound | undefined {
  const overhead = Math.max(0, budget.overheadMs);
  const ranked = groups.map((g) => rank(g, outlook));
  const needOf = (r: Ranked): number => r.need ?? Math.max(1, budget.roundsLeft);
  const longest = Math.max(1, ...ranked.map(needOf));
  const everything = ranked.reduce((sum, r) => sum + needOf(r) * r.group.ms, overhead * longest);
  const thisRound = groups.reduce((sum, g) => sum + g.ms, overhead);
  if (everything <= budget.leftMs)
    return { ids: new Set(groups.flatMap((g) => g.ids)), ms: thisRound, whole: true };
  const chosen: Ranked[] = [];
  let planned = 0;
  let rounds = 0;
  const settleable = ranked
    .filter((r) => r.tier < 2)
    .sort((a, b) => a.tier - b.tier || needOf(a) * a.group.ms - needOf(b) * b.group.ms);
  for (const r of settleable) {
    const more = needOf(r);
    const cost = planned + more * r.group.ms + overhead * Math.max(rounds, more);
    if (cost > budget.leftMs) continue;
    chosen.push(r);
    planned += more * r.group.ms;
    rounds = Math.max(rounds, more);
  }
  const others = ranked
    .filter((r) => !chosen.includes(r))
    .sort((a, b) => Number(b.couldFail) - Number(a.couldFail) || a.group.ms - b.group.ms);
  for (const r of others) {
    if (planned + r.group.ms + overhead * Math.max(rounds, 1) > budget.leftMs) continue;
    chosen.push(r);
    planned += r.group.ms;
    rounds = Math.max(rounds, 1);
  }
  if (chosen.length === 0) return undefined;
  const ms = chosen.reduce((sum, r) => sum + r.group.ms, overhead);
  return {
    ids: new Set(chosen.flatMap((r) => r.group.ids)),
    ms,
    whole: chosen.length === groups.length,
  };
}

/** "time budget: the next round would take ~N s, M s of the B s budget left". */
export function budgetStop(budgetMs: number, usedMs: number, nextMs: number): string {
  const s = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;
  return `time budget: the next round would take ~${s(nextMs)}, ${s(budgetMs - usedMs)} of the ${s(budgetMs)} budget left`;
}
