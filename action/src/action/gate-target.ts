// Which commits the action compares and where it works, from its inputs and the event: the inputs
// (a /rebench run pinned by the authorizer) win over the event. Also the plan overrides its inputs
// set, so every mode reads benchgate.yml from the base commit with the same overrides.
import path from "node:path";
import { InputError } from "../errors.ts";
import type { PlanSource } from "../gate/load-plan.ts";
import type { PlanOverrides } from "../gate/plan.ts";
import type { GateTarget } from "../gate/publish.ts";
import type { GateEvent } from "../github/event.ts";
import type { ActionConfig } from "./action-config.ts";

const SHA = /^[0-9a-f]{40}$/;

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

/** The checkout the action works in, and its output folder. */
export function workspace(config: ActionConfig): { readonly repo: string; readonly out: string } {
  const repo = path.resolve(config.github.workspace);
  return { repo, out: path.resolve(repo, config.out) };
}

/** benchgate.yml as committed in the base commit: a change cannot loosen its own gate. */
export function planSource(config: ActionConfig, target: GateTarget): PlanSource {
  return {
    kind: "commit",
    repo: workspace(config).repo,
    ref: target.baseSha,
    path: config.configPath,
  };
}

/** The inputs that override benchgate.yml. */
export function planOverrides(config: ActionConfig): PlanOverrides {
  return {
    ...(config.rounds === undefined ? {} : { rounds: config.rounds }),
    ...(config.filter === undefined ? {} : { filter: config.filter }),
    statistics: config.failOnInconclusive ? { failOnInconclusive: true } : {},
  };
}
