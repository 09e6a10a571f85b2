// What one round of `schedule: pairs` runs, unit by unit: each unit's base process and head
// process run back to back (pair-round.ts). A Criterion suite is cut into one unit per listed
// benchmark (an exact-id filter), a hyperfine suite into one per command, and a suite that runs
// whole (custom, divan, gungraun, load) is one unit, as is an instructions suite: its counts are
// exact whatever runs beside them, so cutting it would only move its staged programs; benchmarks compared
// with each other on one side (claims, head to head) share a unit, so that their ratio stays
// within one process. Pure: a round plan and the listing in, units out.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import { Groups, listedIds } from "./bench-units.ts";
import type { RoundPlan } from "./round-plan.ts";

/** What the pairs of a run need besides the round: who runs with whom, and how long. */
export interface PairSetup {
  /** Each Criterion suite's ids, both sides' `--list` together. */
  readonly listed: ReadonlyMap<string, readonly string[]>;
  /** Pairs of ids compared with each other on one side: one unit each. */
  readonly together: readonly (readonly [string, string])[];
  /** Criterion suites whose time flags take whole seconds (Criterion before 0.4 on a side). */
  readonly wholeSeconds: ReadonlySet<string>;
}

export interface PairUnit {
  /** The plan one process of this unit runs: the suite narrowed to the unit's benchmarks. */
  readonly plan: SuitePlan;
  /**
   * The unit's benchmarks; undefined: the whole suite, whose ids are known from its output only.
   */
  readonly ids?: readonly string[];
}

/** One suite's units: its open ids grouped by `together`, in listing order. */
function suiteUnits(
  suite: SuitePlan,
  ids: readonly string[],
  together: PairSetup["together"],
): PairUnit[] {
  const groups = new Groups();
  const mine = new Set(ids);
  for (const [a, b] of together) if (mine.has(a) && mine.has(b)) groups.join(a, b);
  const members = new Map<string, string[]>();
  for (const id of ids) {
    const leader = groups.find(id);
    members.set(leader, [...(members.get(leader) ?? []), id]);
  }
  const units: PairUnit[] = [];
  for (const group of members.values()) {
    const narrowed = suiteKind(suite).narrow(suite, { ids: group, active: new Set(group) });
    if (narrowed === undefined) continue;
    // An id no filter can name: one process of the whole suite, the open ids kept from it,
    // rather than several processes that each measure everything.
    if (narrowed.unfiltered === true) return [{ plan: suite, ids }];
    units.push({ plan: narrowed.plan, ids: group });
  }
  return units;
}

/**
 * The units of one round, suite by suite in the plan's order. A suite that the plan keeps whole
 * (a shard's custom harness) or whose benchmarks are not known before it runs is one unit.
 */
export function pairUnits(round: RoundPlan, setup: PairSetup): PairUnit[] {
  const units: PairUnit[] = [];
  for (const suite of round.suites) {
    const kind = suiteKind(suite);
    const whole = round.whole?.has(suite.name) === true || kind.pairUnit === undefined;
    const listed = whole ? undefined : listedIds(suite, setup.listed);
    // A suite whose `--list` named nothing runs whole, with its own filter: what it measures
    // then shows in its output, instead of the suite not running at all.
    const ids = listed?.length === 0 && kind.listArgv !== undefined ? undefined : listed;
    if (ids === undefined) {
      units.push({ plan: suite });
      continue;
    }
    const { active } = round;
    const open = active === undefined ? ids : ids.filter((id) => active.has(id));
    units.push(...suiteUnits(suite, open, setup.together));
  }
  return units;
}
