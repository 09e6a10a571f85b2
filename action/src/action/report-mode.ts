// mode: report — the privileged half of the split workflow (docs/action.md, "mode: report"). It
// runs on a GitHub-hosted runner after the measure job, holds the write token, and never runs the
// pull request's code: it reads the measure job's summaries as hostile data, decides the verdict
// again with the plan of the base commit's config (so neither the change nor the artifact can
// loosen its own gate), and publishes it. A measure job that did not succeed is a failed check,
// never a pass or a neutral one.
import path from "node:path";
import { decide, type Decision } from "../gate/decide.ts";
import { unusedHistoryReason } from "../gate/history-noise-source.ts";
import { loadGatePlan } from "../gate/load-plan.ts";
import { writeOutputs, type OutputFiles } from "../gate/outputs.ts";
import type { GatePlan } from "../gate/plan.ts";
import {
  publishError,
  publishVerdict,
  type GateOutcome,
  type GateTarget,
} from "../gate/publish.ts";
import { failureHeadline, InputError } from "../errors.ts";
import type { GateEvent } from "../github/event.ts";
import { GATE_MARKER } from "../github/sticky-comment.ts";
import type { GitHubPort } from "../ports/github.ts";
import type { Machine } from "../ports/machine.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { ActionConfig } from "./action-config.ts";
import { recordHistory } from "./record-history.ts";
import { readHistoryNoise, readsHistory } from "./read-history-noise.ts";
import { publishContext } from "./gate-mode.ts";
import { gateTarget, planOverrides, planSource, workspace } from "./gate-target.ts";
import { readMeasuredResults, type MeasuredResults } from "../gate/measured-results.ts";
import { carryMeasuredWhere } from "../gate/measured-where.ts";
import { readShardFolders } from "../gate/merge-shards.ts";

const MEASURE_FAILED: Readonly<Record<string, string>> = {
  failure:
    "the measure job failed (a build or benchmark error, a timeout, or a crash): see its log",
  cancelled: "the measure job was cancelled before it finished",
  skipped: "the measure job was skipped, so nothing was measured",
};

/**
 * The golden outputs the base config names, no more and no fewer: an artifact cannot drop a
 * changed output from the verdict.
 */
function checkGoldenNames(plan: GatePlan, measured: MeasuredResults, results: string): void {
  const wanted = (plan.run.golden?.commands ?? []).map((c) => c.name).sort();
  const got = measured.golden.map((g) => g.name).sort();
  if (JSON.stringify(wanted) !== JSON.stringify(got))
    throw new InputError(
      `the measure job's report.json has golden results for [${got.join(", ")}], but the base config names [${wanted.join(", ")}]`,
      { source: path.join(results, "report.json") },
    );
}

/**
 * The run's page, whose artifacts hold the measure job's folder (the generated workflows upload
 * it whole, where/ with it): only when the run's id is known.
 */
function artifactsUrlOf(config: ActionConfig): string | undefined {
  const { serverUrl, owner, repo, runId } = config.github;
  return runId === "" ? undefined : `${serverUrl}/${owner}/${repo}/actions/runs/${runId}#artifacts`;
}

/**
 * The verdict from the artifact, written to our own output folder. On a pull request (or a
 * /rebench) with one run per side, each benchmark's noise comes from the history branch, read
 * only (history-noise.ts).
 */
async function decideFromArtifact(
  config: ActionConfig,
  target: GateTarget,
  machine: Machine,
  reading: { readonly event: GateEvent; readonly io: StepIO },
): Promise<Decision & OutputFiles> {
  const results = path.resolve(config.github.workspace, config.results ?? "");
  const plan = await loadGatePlan(planSource(config, target), planOverrides(config), machine);
  // The rounds the trusted config asked for (a fixed count, or rounds: auto's design); with a
  // matrix, as many shards as the workflow (not the artifacts) says, each in shard-<i>/, all
  // run with the filter this job was given.
  const measured =
    config.shards === undefined
      ? await readMeasuredResults(machine.reader, results, target, plan.run)
      : await readShardFolders(
          machine,
          Array.from({ length: config.shards }, (_, i) => path.join(results, `shard-${i + 1}`)),
          {
            count: config.shards,
            commits: target,
            rounds: plan.run,
            filter: config.filter ?? null,
          },
        );
  checkGoldenNames(plan, measured, results);
  const noise = readsHistory(reading.event)
    ? await readHistoryNoise(config, measured, machine, reading.io)
    : undefined;
  const { wheres, ...summaries } = measured;
  const artifactsUrl = artifactsUrlOf(config);
  const decided = decide(plan, { ...summaries, noise }, machine.clock.date(), {
    marker: GATE_MARKER,
    ...(artifactsUrl === undefined ? {} : { artifactsUrl }),
  });
  // The measure job's Where (each shard's, in a matrix), on the regressions this decision confirms.
  const decision =
    wheres === undefined
      ? decided
      : carryMeasuredWhere(decided, wheres, (message) => reading.io.warning(message));
  if (noise !== undefined && decision.report.mode !== "history")
    reading.io.info(
      `benchgate: the history was read but not used: ${unusedHistoryReason(decision.report, noise)}`,
    );
  // Our own copies, beside nothing the measure job wrote.
  const { out } = workspace(config);
  await machine.dirs.ensure(out);
  return { ...decision, ...(await writeOutputs(out, decision, {}, machine)) };
}

export async function runReportMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: StepIO,
  machine: Machine,
): Promise<GateOutcome> {
  const target = gateTarget(config, event);
  const ctx = publishContext(config, github, io, target);
  const failed = MEASURE_FAILED[config.measureResult ?? "skipped"];
  if (failed !== undefined) {
    await publishError(ctx, undefined, failed, {
      comment: config.measureResult !== "cancelled",
    });
    io.setOutput("verdict", "error");
    return { verdict: "error", failed: true };
  }
  const computed = await decideFromArtifact(config, target, machine, { event, io }).catch(
    async (error: unknown) => {
      await publishError(ctx, undefined, failureHeadline(error));
      throw error;
    },
  );
  const outcome = await publishVerdict(ctx, computed, undefined);
  // A pull request's run only read the history; a push records its commit. A history that
  // could not be written fails the step by itself (io.fail), after the verdict.
  if (!readsHistory(event))
    await recordHistory(config, target, computed.reportFile, machine, io, event);
  return outcome;
}
