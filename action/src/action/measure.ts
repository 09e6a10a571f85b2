// mode: measure — the half of the split workflow that runs the pull request's code (security.md
// §8.7): on the pinned self-hosted runner, with no token and no API call. It benchmarks, writes
// the output folder (the artifact the report job reads) and the job summary, and succeeds
// whenever a comparison was made: whether the change regressed is for the report job to decide
// from the summaries, with the config of the base commit.
import type { Machine } from "../ports/machine.ts";
import type { ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { GateEvent } from "../github/event.ts";
import { gateTarget, measure } from "./gate.ts";

export async function runMeasureMode(
  config: ActionConfig,
  event: GateEvent,
  io: StepIO,
  machine: Machine,
): Promise<void> {
  const session = await measure(config, gateTarget(config, event), machine);
  await io.summary(session.markdown);
  io.setOutput("verdict", session.report.verdict);
  io.setOutput("report-path", session.reportFile);
  io.info(
    `benchgate: measured (${session.report.verdict}); the report job publishes the verdict from ${config.out}`,
  );
}
