// mode: gate — benchmark base and head, then report, in one job: the check run is opened first,
// then the verdict is published (publish-verdict.ts). mode: measure runs the same session and
// reports nothing; mode: report publishes what a measure job produced.
import path from "node:path";
import type { Machine } from "../ports/machine.ts";
import { defaultCacheDir, runSession, type SessionResult } from "../cli/gate-session.ts";
import { resolveSettings, type CompareSettings } from "../core/settings.ts";
import { InputError } from "../errors.ts";
import type { GitHubPort } from "../ports/github.ts";
import { GATE_MARKER } from "../github/sticky-comment.ts";
import { settingsFrom } from "../cli/settings-input.ts";
import type { RunConfig } from "../config/run-config.ts";
import type { ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { GateEvent } from "../github/event.ts";
import {
  describeError,
  openCheck,
  publishError,
  publishVerdict,
  type GateOutcome,
  type GateTarget,
} from "./publish-verdict.ts";

export type { GateOutcome, GateTarget };

const SHA = /^[0-9a-f]{40}$/;

/** What to benchmark: the inputs (a pinned /rebench run) win over the event. */
export function gateTarget(config: ActionConfig, event: GateEvent): GateTarget {
  const pr = config.prNumber ?? (event.kind === "pull_request" ? event.number : undefined);
  if ((config.baseSha === undefined) !== (config.headSha === undefined))
    throw new InputError("inputs 'base-sha' and 'head-sha' go together: give both or neither");
  if (config.baseSha !== undefined && config.headSha !== undefined)
    return {
      baseSha: config.baseSha,
      headSha: config.headSha,
      ...(pr === undefined ? {} : { prNumber: pr }),
    };
  if (event.kind === "pull_request") {
    // Fork code never runs here automatically: a maintainer's /rebench pins its SHA instead.
    if (event.headRepo !== event.baseRepo)
      throw new InputError(
        `pull request #${event.number} comes from a fork (${event.headRepo || "a deleted repository"}); fork PRs are benchmarked only through a maintainer's /rebench`,
      );
    return { baseSha: event.baseSha, headSha: event.headSha, prNumber: event.number };
  }
  if (event.kind === "push") {
    if (!SHA.test(event.before) || /^0+$/.test(event.before))
      throw new InputError("this push has no previous commit to compare with (a new branch?)");
    return { baseSha: event.before, headSha: event.after };
  }
  throw new InputError(
    `mode: gate needs a pull_request or push event, or the inputs base-sha and head-sha (event: ${event.kind === "other" ? event.name : event.kind})`,
  );
}

/** The statistics settings: the config's statistics: block, and the action's override. */
export function actionSettings(config: ActionConfig): (run: RunConfig) => CompareSettings {
  return (run) => {
    const base = settingsFrom(run.document, { flags: new Map(), positionals: [] });
    return config.failOnInconclusive
      ? resolveSettings({ ...base, failOnInconclusive: true })
      : base;
  };
}

/** Benchmarks the target in the workspace (mode: gate and mode: measure). */
export function measure(
  config: ActionConfig,
  target: GateTarget,
  machine: Machine,
): Promise<SessionResult> {
  const repo = path.resolve(config.github.workspace);
  return runSession(
    {
      repo,
      baseRef: target.baseSha,
      headRef: target.headSha,
      out: path.resolve(repo, config.out),
      cacheDir: defaultCacheDir(machine.env),
      configPath: config.configPath,
      rounds: config.rounds,
      filter: config.filter,
      settings: actionSettings(config),
      quiet: false,
      comment: { marker: GATE_MARKER },
    },
    machine,
  );
}

export async function runGateMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: StepIO,
  machine: Machine,
): Promise<GateOutcome> {
  const target = gateTarget(config, event);
  const ctx = { config, github, io, target };
  const checkId = await openCheck(ctx);
  const session = await measure(config, target, machine).catch(async (error: unknown) => {
    await publishError(ctx, checkId, describeError(error));
    throw error;
  });
  return publishVerdict(ctx, session, checkId);
}
