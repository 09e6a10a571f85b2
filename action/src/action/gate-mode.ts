// mode: gate — benchmark base and head, then report, in one job: the check run is opened first,
// then the verdict is published. mode: measure runs the same gate and publishes nothing; mode:
// report publishes what a measure job produced.
import { loadGatePlan } from "../gate/load-plan.ts";
import { defaultCacheDir, type MeasureTarget } from "../gate/measure.ts";
import { runShard, type ShardRun } from "../gate/run-shard.ts";
import type { ShardTag as Shard } from "../core/shard-blocks.ts";
import {
  openCheck,
  publishError,
  publishVerdict,
  type GateOutcome,
  type GateTarget,
  type PublishContext,
} from "../gate/publish.ts";
import { runGate, type GateRun } from "../gate/run-gate.ts";
import { failureHeadline } from "../errors.ts";
import type { GateEvent } from "../github/event.ts";
import { GATE_MARKER } from "../github/sticky-comment.ts";
import type { GitHubPort } from "../ports/github.ts";
import type { Machine } from "../ports/machine.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { ActionConfig } from "./action-config.ts";
import { gateTarget, planOverrides, planSource, workspace } from "./gate-target.ts";

/** The commits and folders a measure job works on. */
function measureAt(config: ActionConfig, target: GateTarget, machine: Machine): MeasureTarget {
  const { repo, out } = workspace(config);
  return {
    repo,
    baseRef: target.baseSha,
    headRef: target.headSha,
    out,
    cacheDir: defaultCacheDir(machine.env),
  };
}

/** mode: measure with `shard: I/N`: this job's part of the matrix, no verdict. */
export async function measureShard(
  config: ActionConfig,
  target: GateTarget,
  shard: Shard,
  machine: Machine,
): Promise<ShardRun> {
  const plan = await loadGatePlan(planSource(config, target), planOverrides(config), machine);
  return runShard(plan, { ...measureAt(config, target, machine), shard }, machine, {
    quiet: false,
    filter: config.filter,
  });
}

export async function measureTarget(
  config: ActionConfig,
  target: GateTarget,
  machine: Machine,
): Promise<GateRun> {
  const plan = await loadGatePlan(planSource(config, target), planOverrides(config), machine);
  return runGate(plan, measureAt(config, target, machine), machine, {
    quiet: false,
    comment: { marker: GATE_MARKER },
  });
}

export function publishContext(
  config: ActionConfig,
  github: GitHubPort,
  io: StepIO,
  target: GateTarget,
): PublishContext {
  const settings = {
    botUserId: config.botUserId,
    ...(config.checkId === undefined ? {} : { checkId: config.checkId }),
    ...(config.commandCommentId === undefined ? {} : { commandCommentId: config.commandCommentId }),
  };
  return { settings, github, io, target };
}

export async function runGateMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: StepIO,
  machine: Machine,
): Promise<GateOutcome> {
  const target = gateTarget(config, event);
  const ctx = publishContext(config, github, io, target);
  const checkId = await openCheck(ctx);
  const run = await measureTarget(config, target, machine).catch(async (error: unknown) => {
    await publishError(ctx, checkId, failureHeadline(error));
    throw error;
  });
  return publishVerdict(ctx, run, checkId);
}
