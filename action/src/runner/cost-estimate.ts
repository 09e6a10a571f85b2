// What a run will cost, said before its first round (docs/run.md, "Progress"): how many
// benchmarks, and about how long a round and the whole run take, from the number of benchmarks
// and each suite's settings alone (its kind's guess, SuiteKind.estimateSideMs: Criterion's
// warm-up and measurement time, hyperfine's runs, a load suite's duration). It is a first guess; round 1's line replaces it with measured time.
// Suites whose benchmarks or times are known only once they run (custom, divan, gungraun) are
// named, not guessed. Pure.
import type { RunConfig } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import { listedIds } from "./bench-units.ts";
import { formatDuration } from "./progress.ts";
import { plural } from "./rounds-state.ts";

/** Each side's fingerprint and summary, per round. */
const ROUND_OVERHEAD_MS = 1000;

interface PlannedCost {
  /** Benchmarks known before they run (Criterion listed, hyperfine and instructions commands). */
  readonly benchmarks: number;
  readonly suites: number;
  /** Suites whose benchmarks are known only once they run, with their kind. */
  readonly unknown: readonly string[];
  /** One round, both sides, of what is known. */
  readonly roundMs: number;
  /** Each suite's part of it, both sides (suites not known before they run are absent). */
  readonly suiteMs: ReadonlyMap<string, number>;
}

/**
 * The cost of one round from the config and, under pairs, each Criterion suite's listing
 * (`listed`; without it a Criterion suite's benchmarks are not known before it runs).
 */
export function plannedCost(
  config: RunConfig,
  listed: ReadonlyMap<string, readonly string[]> | undefined,
  wholeSeconds: ReadonlySet<string> = new Set(),
): PlannedCost {
  const pairs = config.schedule === "pairs";
  let benchmarks = 0;
  let sideMs = 0;
  const unknown: string[] = [];
  const suiteMs = new Map<string, number>();
  for (const suite of config.suites) {
    const kind = suiteKind(suite);
    // A listing kind's benchmarks are not known without its listing.
    const ids =
      kind.listArgv !== undefined && listed === undefined
        ? undefined
        : listedIds(suite, listed ?? new Map());
    const harness = { wholeSeconds: wholeSeconds.has(suite.name) };
    const ms = kind.estimateSideMs?.(suite, ids?.length, pairs, harness);
    if (ms === undefined) {
      unknown.push(`${suite.name} (${suite.kind})`);
      continue;
    }
    benchmarks += ids?.length ?? 0;
    sideMs += ms;
    suiteMs.set(suite.name, 2 * ms);
  }
  return {
    benchmarks,
    suites: config.suites.length,
    unknown,
    roundMs: 2 * sideMs + ROUND_OVERHEAD_MS,
    suiteMs,
  };
}

/** A few parts joined by commas and a final "and". */
function listed(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? "")
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1) ?? ""}`;
}

/**
 * The run's first line after planning, e.g. "plan: 22 benchmarks in 3 suites, about 0:40 a
 * round: 5 rounds, about 3:20 (…)". `elapsedMs`: what the run has taken so far, which the time
 * budget counts; `aba`: base, head, base, three runs of one side each.
 */
export function describeCost(
  cost: PlannedCost,
  config: RunConfig,
  at: {
    readonly elapsedMs: number;
    readonly aba?: boolean;
    /** Where the round's time comes from; default: the suites' settings. */
    readonly from?: string;
  },
): string {
  const what =
    cost.benchmarks > 0 || cost.unknown.length < cost.suites
      ? `${plural(cost.benchmarks, "benchmark")} in ${plural(cost.suites, "suite")}`
      : plural(cost.suites, "suite");
  const round = cost.roundMs;
  const { sequential } = config;
  let rounds: string;
  if (at.aba === true) rounds = `base, head, base, about ${formatDuration(1.5 * round)}`;
  else if (sequential === undefined)
    rounds = `${plural(config.rounds, "round")}, about ${formatDuration(config.rounds * round)}`;
  else {
    const low = sequential.minRounds * round;
    const budget = sequential.timeBudgetMs;
    // The first min-rounds rounds always run; after them no round starts beyond the budget.
    const left = budget === undefined ? Infinity : Math.max(low, budget - at.elapsedMs);
    const high = Math.min(config.rounds * round, left);
    const capped =
      budget !== undefined && low > budget - at.elapsedMs
        ? `: the ${sequential.minRounds} rounds every benchmark runs overrun it`
        : high < config.rounds * round
          ? ", which caps the rounds"
          : "";
    const used = at.elapsedMs >= 1000 ? `, ${formatDuration(at.elapsedMs)} of it used` : "";
    const span =
      formatDuration(low) === formatDuration(high)
        ? formatDuration(low)
        : `${formatDuration(low)} to ${formatDuration(high)}`;
    rounds = `${sequential.minRounds} to ${config.rounds} rounds, about ${span}${budget === undefined ? "" : ` (time budget ${formatDuration(budget)}${used}${capped})`}`;
  }
  const unknown =
    cost.unknown.length === 0
      ? ""
      : `; not counted: ${listed(cost.unknown)}, whose benchmarks and times are known once they run`;
  const from = at.from ?? "estimated from the suites' settings; round 1 measures it";
  return `plan: ${what}, about ${formatDuration(round)} a round: ${rounds}${unknown} (${from})`;
}

/** How long into round 1 its pace is worth a line, and how many pairs it needs. */
const PACE_AFTER_MS = 60_000;
const PACE_PAIRS = 2;

/**
 * Round 1's pace, said once under pairs when round 1 is long: after a minute, from the pairs of
 * the suite it is in (and the settings' guess for the suites after it), the plan line again with
 * measured time, so a run whose benchmarks take longer than their settings say (times set in
 * code) says so long before round 1 ends.
 */
export class PaceWatch {
  readonly #cost: PlannedCost;
  readonly #config: RunConfig;
  #said = false;

  constructor(cost: PlannedCost, config: RunConfig) {
    this.#cost = cost;
    this.#config = config;
  }

  /**
   * After a pair of round 1: `suite` has `done` of `expected` pairs in `suiteMs`; the round
   * started `roundMs` ago, the run `elapsedMs` ago. A line once, else undefined.
   */
  pace(
    suite: string,
    pairs: { readonly done: number; readonly expected: number },
    times: { readonly suiteMs: number; readonly roundMs: number; readonly elapsedMs: number },
  ): string | undefined {
    const { done, expected } = pairs;
    if (this.#said || times.roundMs < PACE_AFTER_MS || done < PACE_PAIRS || done >= expected)
      return undefined;
    this.#said = true;
    const names = this.#config.suites.map((s) => s.name);
    const later = names.slice(names.indexOf(suite) + 1);
    const rest = later.reduce((sum, name) => sum + (this.#cost.suiteMs.get(name) ?? 0), 0);
    const roundMs =
      times.roundMs + (times.suiteMs / done) * (expected - done) + rest + ROUND_OVERHEAD_MS;
    return describeCost({ ...this.#cost, roundMs }, this.#config, {
      elapsedMs: times.elapsedMs - times.roundMs,
      from: `at round 1's pace: ${suite} ${done} of ${expected} pairs in ${formatDuration(times.suiteMs)}; the settings said about ${formatDuration(this.#cost.roundMs)} a round`,
    });
  }
}
