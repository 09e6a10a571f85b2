// The measuring half of `benchgate run`: rounds that alternate which side runs first
// (A B | B A | …), each side's outputs of a round ingested, validated and written as one summary
// with the commit, the run order and the fingerprint. `schedule: suite` runs every suite once per
// side per round (round-side.ts); `schedule: pairs` runs each benchmark's base and head processes
// back to back, one short process per benchmark (pair-round.ts). With `rounds: auto` the first min-rounds rounds run everything; after each
// later round the statistics core looks at the summaries so far, and the next round runs only the
// benchmarks still open, until none is left, max-rounds is reached or the time budget would be
// exceeded (next-round.ts). Stopped by Ctrl-C or SIGTERM, the loop returns the rounds both sides
// completed, marked stopped, so that the run can still decide on them (a partial report).
import { ToolError } from "../errors.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { nextRound } from "./next-round.ts";
import { runSide } from "./round-side.ts";
import { emptyLedger, type RoundLedger, type RoundsRun } from "./rounds-state.ts";
import { runPairRound } from "./pair-round.ts";
import type { PairSetup } from "./pair-units.ts";
import type { RoundPlan } from "./round-plan.ts";
import type { RunDeps, RunOutcome, RunRequest, StoppedRun } from "./run-request.ts";
import type { SuiteTime } from "./sequential-rounds.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { roundOrder } from "./suite-commands.ts";

export interface RoundsOutcome {
  readonly summaries: RunOutcome["summaries"];
  /**
   * How many rounds ran: the fixed count, or where sequential rounds stopped (base, head, base:
   * 2, base's runs).
   */
  readonly rounds: number;
  /** The latest round in which every suite ran whole (critcmp's table compares that one). */
  readonly fullRound: number;
  /** Ctrl-C or SIGTERM stopped the rounds; `rounds` counts those both sides completed. */
  readonly stopped?: StoppedRun;
}

/** The signal's name from the abort's reason ("SIGTERM"), else "a signal". */
function signalName(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && /^SIG[A-Z0-9]{1,16}$/.test(reason) ? reason : "a signal";
}

/**
 * After an interrupt: only rounds both sides completed are kept. A side that wrote its summary of
 * a round whose other side did not finish has that file removed, so that \`compare\` over the
 * summaries folder decides exactly what the partial report decided.
 */
async function keepCompleteRounds(ledger: RoundLedger, deps: RunDeps): Promise<number> {
  const { written } = ledger;
  const complete = Math.min(written.base.length, written.head.length);
  for (const side of ["base", "head"] as const)
    for (const extra of written[side].splice(complete))
      await deps.dirs.remove(extra.source).catch(() => undefined);
  return complete;
}

export async function runRounds(
  request: RunRequest,
  sides: Record<Side, SidePaths>,
  commits: Record<Side, string>,
  deps: RunDeps,
  options: {
    /** What every round runs until a look narrows it: every suite, or a shard's part of them. */
    readonly initial?: RoundPlan;
    /** schedule: pairs: the listing and the units' settings (pair-setup.ts). */
    readonly pairs?: PairSetup;
  } = {},
): Promise<RoundsOutcome> {
  const { config } = request;
  const { progress } = deps;
  const initial = options.initial ?? { suites: config.suites };
  if (config.sequential !== undefined && request.planNext === undefined)
    throw new ToolError("internal error: rounds: auto needs a planner for the next round");
  if (config.schedule === "pairs" && options.pairs === undefined)
    throw new ToolError("internal error: schedule: pairs needs the suites' listing");
  const run: RoundsRun = {
    request,
    sides,
    commits,
    deps,
    ...(config.schedule === "pairs" && options.pairs !== undefined ? { pairs: options.pairs } : {}),
  };
  const ledger = emptyLedger();
  let plan = initial;
  let fullRound = 0;
  let round = 1;
  progress.startRounds(config.rounds, config.sequential?.minRounds);
  for (; ; round++) {
    const roundStarted = deps.clock.now();
    progress.startRound();
    const thisRound = new Map<string, SuiteTime>();
    try {
      if (run.pairs !== undefined) {
        const written = await runPairRound({ round, plan, times: thisRound }, run, ledger);
        for (const side of roundOrder(round)) ledger.written[side].push(written[side]);
      } else
        for (const side of roundOrder(round))
          ledger.written[side].push(
            await runSide({ side, round, plan, times: thisRound }, run, ledger),
          );
    } catch (error) {
      if (!(error instanceof InterruptedError) || !deps.signal.aborted) throw error;
      const done = await keepCompleteRounds(ledger, deps);
      return {
        summaries: ledger.written,
        rounds: done,
        fullRound: Math.min(fullRound, done),
        stopped: { signal: signalName(deps.signal), error },
      };
    }
    progress.line(progress.finishRound(round));
    if (plan === initial) fullRound = round;
    for (const [name, time] of thisRound) ledger.latest.set(name, time);
    const times = { roundStarted, thisRound };
    const next = nextRound({ round, plan, times }, run, ledger);
    if (next === undefined) break;
    plan = next;
  }
  return { summaries: ledger.written, rounds: round, fullRound };
}
