// mode: measure — the half of the split workflow that runs the pull request's code: on the pinned
// self-hosted runner, with no token and no API call. It benchmarks, writes the output folder (the
// artifact the report job reads) and the job summary, and succeeds whenever a comparison was
// made: whether the change regressed is for the report job to decide from the summaries, with
// the config of the base commit (docs/action.md, "mode: measure").
import type { Machine } from "../ports/machine.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { GateEvent } from "../github/event.ts";
import type { ActionConfig } from "./action-config.ts";
import { measureShard, measureTarget } from "./gate-mode.ts";
import { describeShardRun } from "../gate/run-shard.ts";
import { gateTarget } from "./gate-target.ts";

export async function runMeasureMode(
  config: ActionConfig,
  event: GateEvent,
  io: StepIO,
  machine: Machine,
): Promise<void> {
  if (config.shard !== undefined) {
    // One job of the matrix: its part measured, no verdict (the report job merges them all).
    const shard = await measureShard(config, gateTarget(config, event), config.shard, machine);
    const line = describeShardRun(shard).replace(
      "merge every shard's folder with `benchgate merge DIR...`",
      "the report job decides over every shard",
    );
    await io.summary(`### benchgate: ${line}\n`);
    io.info(`benchgate: ${line}`);
    return;
  }
  const run = await measureTarget(config, gateTarget(config, event), machine);
  await io.summary(run.markdown);
  io.setOutput("verdict", run.report.verdict);
  io.setOutput("report-path", run.reportFile);
  io.info(
    `benchgate: measured (${run.report.verdict}); the report job publishes the verdict from ${config.out}`,
  );
}
