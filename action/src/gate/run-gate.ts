// The whole gate on one machine, from a plan to the files in the output folder: measure, decide,
// "Where it regressed" for the confirmed regressions (./where-step.ts; never the verdict), write. The CLI's `run` and the action's gate and measure modes are adapters over this; the
// action's report mode decides and writes the same way from a measure job's summaries. A run
// stopped by Ctrl-C or SIGTERM after at least one complete round still decides on those rounds
// and writes the report marked partial, then fails as interrupted (PartialRunError), so that no
// caller takes it for a finished run's verdict.
import type { CommentOptions } from "../render/comment.ts";
import type { Machine } from "../ports/machine.ts";
import { describeTimings } from "../runner/step-timings.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { decide, type Decision, type PartialRun } from "./decide.ts";
import { measure, type Measurement, type MeasureTarget } from "./measure.ts";
import { writeOutputs, type OutputFiles } from "./outputs.ts";
import { addWhere, keepsCheckoutsForWhere, whereContext, whereMachine } from "./where-step.ts";
import type { GatePlan } from "./plan.ts";

export interface GateRun extends Decision, OutputFiles {
  readonly measurement: Measurement;
}

/**
 * The decision on the complete rounds (a partial report after a signal), then "Where it
 * regressed" for its confirmed regressions: after the verdict, which it never changes, and not
 * after a stopped run.
 */
async function decideAndLocate(
  plan: GatePlan,
  measurement: Measurement,
  target: MeasureTarget,
  machine: Machine,
  comment: CommentOptions | undefined,
): Promise<Decision> {
  const { progress, critcmp, stopped } = measurement;
  // Nothing complete to decide on: interrupted, as before any round.
  if (stopped !== undefined && measurement.rounds < 1) throw stopped.error;
  const partial: PartialRun | undefined =
    stopped === undefined
      ? undefined
      : {
          reason: "signal",
          ...(stopped.signal.startsWith("SIG") ? { signal: stopped.signal } : {}),
          rounds_completed: measurement.rounds,
          rounds_planned: plan.run.rounds,
        };
  progress.line(
    partial === undefined
      ? "comparing"
      : `comparing the ${measurement.rounds} complete round${measurement.rounds === 1 ? "" : "s"} (a partial report)`,
  );
  const decided = decide(
    plan,
    { ...measurement, critcmpTable: critcmp.table, partial },
    machine.clock.date(),
    comment,
  );
  if (!plan.where || stopped !== undefined) return decided;
  return addWhere(
    decided,
    whereContext(plan, measurement, target),
    whereMachine(machine, measurement),
  );
}

export async function runGate(
  plan: GatePlan,
  target: MeasureTarget,
  machine: Machine,
  options: { readonly quiet: boolean; readonly comment?: CommentOptions },
): Promise<GateRun> {
  // Where runs some suites' commands in the worktrees: the run leaves them in place for it.
  const measurement = await measure(plan, target, machine, {
    ...options,
    keepCheckouts: keepsCheckoutsForWhere(plan),
  });
  const { progress, critcmp, stopped } = measurement;
  // The worktrees kept for Where (commands run in them) go once it is done, whatever happens.
  let decision: Decision;
  try {
    decision = await decideAndLocate(plan, measurement, target, machine, options.comment);
  } finally {
    await measurement.checkouts?.release();
  }
  if (critcmp.table === undefined && stopped === undefined)
    progress.warn(`no critcmp table: ${critcmp.note ?? "unknown reason"}`);
  const timing = measurement.timings.document(progress.elapsedMs());
  const files = await writeOutputs(
    target.out,
    decision,
    { critcmpTable: critcmp.table, timings: timing },
    machine,
  );
  progress.line(describeTimings(timing));
  const run = { ...decision, ...files, measurement };
  if (stopped !== undefined)
    throw new PartialRunError(
      `${stopped.error.message}; the report of the ${measurement.rounds} complete round${measurement.rounds === 1 ? "" : "s"} is written, marked partial (${files.reportFile})`,
      run,
    );
  return run;
}

/**
 * A run stopped by a signal whose completed rounds were decided and written as a partial report:
 * still an interruption (exit 3), with the decision for whoever wants to show it.
 */
export class PartialRunError extends InterruptedError {
  override name = "PartialRunError";
  readonly run: GateRun;

  constructor(message: string, run: GateRun) {
    super(message);
    this.run = run;
  }
}
