// Which suites and benchmarks one round runs: every suite of the run, narrowed to the benchmarks
// still open after a look (sequential rounds) or to a shard's units. Its own file because both
// the rounds' state and the shard split speak of it.
import type { SuitePlan } from "../config/run-config.ts";

/** What one round runs: every suite whole, or (after a look) the open benchmarks only. */
export interface RoundPlan {
  readonly suites: readonly SuitePlan[];
  /** The open ids; undefined: everything (the rounds before the first look, fixed rounds). */
  readonly active?: ReadonlySet<string>;
  /**
   * Suites kept whole whatever `active` says: a shard's suites that can only run whole (custom,
   * gungraun, load), whose ids are not known before they run.
   */
  readonly whole?: ReadonlySet<string>;
}
