// The whole gate on one machine, from a plan to the files in the output folder: measure, decide,
// write. The CLI's `run` and the action's gate and measure modes are adapters over this; the
// action's report mode decides and writes the same way from a measure job's summaries.
import type { CommentOptions } from "../render/comment.ts";
import type { Machine } from "../ports/machine.ts";
import { describeTimings } from "../runner/step-timings.ts";
import { decide, type Decision } from "./decide.ts";
import { measure, type Measurement, type MeasureTarget } from "./measure.ts";
import { writeOutputs, type OutputFiles } from "./outputs.ts";
import type { GatePlan } from "./plan.ts";

export interface GateRun extends Decision, OutputFiles {
  readonly measurement: Measurement;
}

export async function runGate(
  plan: GatePlan,
  target: MeasureTarget,
  machine: Machine,
  options: { readonly quiet: boolean; readonly comment?: CommentOptions },
): Promise<GateRun> {
  const measurement = await measure(plan, target, machine, options);
  const { progress, critcmp } = measurement;
  progress.line("comparing");
  const decision = decide(
    plan,
    { ...measurement, critcmpTable: critcmp.table },
    machine.clock.date(),
    options.comment,
  );
  if (critcmp.table === undefined)
    progress.warn(`no critcmp table: ${critcmp.note ?? "unknown reason"}`);
  const timing = measurement.timings.document(progress.elapsedMs());
  const files = await writeOutputs(
    target.out,
    decision,
    { critcmpTable: critcmp.table, timings: timing },
    machine,
  );
  progress.line(describeTimings(timing));
  return { ...decision, ...files, measurement };
}
