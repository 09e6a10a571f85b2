// The units a run is cut into when it does not run each suite whole: one per Criterion benchmark
// (ids listed before the rounds), hyperfine or instructions command, and one per suite that can
// only run whole (custom, divan, gungraun, load); benchmarks compared with each other on one side
// (a claim's pair, head-to-head variants) are joined into one unit, since their per-round ratio
// needs one process or one machine. Shards deal units out (shard-plan.ts); `schedule: pairs`
// runs each unit's base and head processes back to back (pair-units.ts). Pure.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";

/**
 * Suites whose benchmarks are known before they run, and can be run one by one (a listing
 * kind's from `listed`, each listed suite's ids by name): their ids (SuiteKind.idsBeforeRun).
 */
export function listedIds(
  suite: SuitePlan,
  listed: ReadonlyMap<string, readonly string[]>,
): readonly string[] | undefined {
  return suiteKind(suite).idsBeforeRun?.(suite, listed.get(suite.name));
}

/** Union–find over unit keys: the units a pair of ids joins. */
export class Groups {
  readonly #parent = new Map<string, string>();
  find(key: string): string {
    let root = key;
    for (
      let up = this.#parent.get(root);
      up !== undefined && up !== root;
      up = this.#parent.get(root)
    )
      root = up;
    this.#parent.set(key, root);
    return root;
  }
  join(a: string, b: string): void {
    const [x, y] = [this.find(a), this.find(b)];
    // The smaller key leads, so the group's name does not depend on the order of the pairs.
    if (x < y) this.#parent.set(y, x);
    else if (y < x) this.#parent.set(x, y);
  }
}
