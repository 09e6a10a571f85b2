// What the round loop of `benchgate run` (run-rounds.ts) carries from one round to the next:
// the run it belongs to, what the next round runs, and the bookkeeping sequential rounds need
// to narrow a round to the open benchmarks and to estimate its time. Also how the rounds'
// progress lines count benchmarks and quote ids.
import type { SourcedSummary } from "../core/pairing.ts";
import type { RunDeps, RunRequest } from "./run-request.ts";
import type { SuiteTime } from "./sequential-rounds.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import type { PairSetup } from "./pair-units.ts";

/** Everything a round reads besides its plan: the request, both checkouts and the machine. */
export interface RoundsRun {
  readonly request: RunRequest;
  readonly sides: Readonly<Record<Side, SidePaths>>;
  readonly commits: Readonly<Record<Side, string>>;
  readonly deps: RunDeps;
  /** `schedule: pairs`: the listing and the units' settings; absent: each suite runs whole. */
  readonly pairs?: PairSetup;
}

/** What the rounds so far have produced and taken; each round adds to it. */
export interface RoundLedger {
  /** Each side's summaries, in round order: what a look reads and what the run returns. */
  readonly written: Record<Side, SourcedSummary[]>;
  /** Every id measured so far → its suite: what a look's open ids are mapped back to. */
  readonly suiteOf: Map<string, string>;
  /** Per side, the ids it has produced: an open one missing later is worth a warning. */
  readonly seenOn: Record<Side, Set<string>>;
  /** Each suite's latest run (both sides): the time budget's estimate of the next round. */
  readonly latest: Map<string, SuiteTime>;
  /**
   * Per benchmark id, what its latest base and head processes took together (schedule: pairs;
   * a unit of several ids shares its time out): the time budget's estimate per benchmark.
   */
  readonly idMs: Map<string, number>;
  /** Warnings said once per run, by key. */
  readonly warned: Set<string>;
}

export function emptyLedger(): RoundLedger {
  return {
    written: { base: [], head: [] },
    suiteOf: new Map(),
    seenOn: { base: new Set(), head: new Set() },
    latest: new Map(),
    idMs: new Map(),
    warned: new Set(),
  };
}

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** At most five ids, each cut to 80 characters: a progress line stays one readable line. */
export function quoteIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => JSON.stringify(id.slice(0, 80)));
  return `${shown.join(", ")}${ids.length > 5 ? `, … (${ids.length} in all)` : ""}`;
}
