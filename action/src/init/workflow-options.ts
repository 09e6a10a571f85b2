// What the gate workflows are rendered from, and the checks that keep each value from changing
// a workflow's meaning: everything here ends up inside YAML that GitHub runs with a token, so
// only plain names and refs are accepted (no spaces, quotes, newlines or `${{ }}`). Pure.
import { InputError } from "../errors.ts";
import { MAX_SHARDS } from "../core/shard-blocks.ts";
import { RELEASED_ACTION } from "./released-action.ts";

/**
 * Where the measure job runs: a dedicated, pinned self-hosted machine (the default), or
 * GitHub's shared `ubuntu-latest` (docs/github-hosted.md: counts decide there, timings only
 * large changes).
 */
export const RUNNER_KINDS = ["self-hosted", "github-hosted"] as const;
export type RunnerKind = (typeof RUNNER_KINDS)[number];

/** The image a GitHub-hosted measure job runs on, and every report and authorize job. */
export const HOSTED_RUNNER = "ubuntu-latest";

export interface WorkflowOptions {
  /** `owner/repo[/path]@ref` (pin a 40-hex commit SHA), or `./path` in benchgate's own repository. */
  readonly actionRef: string;
  /** Absent: self-hosted. */
  readonly runner?: RunnerKind;
  /** The self-hosted runner's labels; unused on a GitHub-hosted runner. */
  readonly runnerLabels: readonly string[];
  readonly defaultBranch: string;
  /**
   * Measure jobs per run, as a matrix over that many identical runners (docs/workflows.md,
   * "Sharding over several runners"). Absent or 1: one measure job.
   */
  readonly shards?: number;
}

export const WORKFLOW_PATHS = {
  pr: ".github/workflows/benchgate-pr.yml",
  command: ".github/workflows/benchgate-command.yml",
  main: ".github/workflows/benchgate-main.yml",
} as const;

/**
 * actionlint's config: it knows GitHub's own labels, and reports any other label of a
 * self-hosted runner as unknown unless this file lists it.
 */
export const ACTIONLINT_CONFIG_PATH = ".github/actionlint.yaml";

/** The action in benchgate's repository, without a ref. */
export const ACTION_PATH = "benchgate/benchgate/action";
/** The major tag scripts/release.ts moves on every release: what a build from source falls back to. */
const MAJOR_TAG = "v0";
/**
 * `benchgate init`'s default: the release commit this CLI was published with, pinned by SHA
 * (scripts/release.ts writes it into the npm build). A build from source does not know it and
 * falls back to the moving major tag; `init` then warns that the ref is not pinned.
 */
export const DEFAULT_ACTION_REF =
  RELEASED_ACTION === undefined
    ? `${ACTION_PATH}@${MAJOR_TAG}`
    : `${RELEASED_ACTION.action}@${RELEASED_ACTION.sha}`;
export const DEFAULT_RUNNER_LABELS = ["self-hosted", "linux", "x64", "benchgate"] as const;
export const DEFAULT_BRANCH = "main";

/**
 * Where a local action's repository (`./action`: benchgate's own) is checked out from a trusted
 * commit and built. The subject under test is checked out at the workspace root and may be a
 * fork's commit; running *its* copy of the action with a write token would hand that token to
 * the code being measured, so the gate always runs the default branch's (or base's) code.
 */
export const HARNESS_DIR = ".benchgate/harness";

const REMOTE_REF =
  /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}(?:\/[A-Za-z0-9._-]{1,100}){0,10}@[A-Za-z0-9._/-]{1,200}$/;
const LOCAL_REF = /^\.\/[A-Za-z0-9._-]{1,100}(?:\/[A-Za-z0-9._-]{1,100}){0,10}$/;
const PINNED_REF = /@[0-9a-f]{40}$/;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const BRANCH = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

export function isLocalActionRef(ref: string): boolean {
  return ref.startsWith("./");
}

/** A remote reference pinned to a full commit SHA, the only kind a tag move cannot change. */
export function isPinnedActionRef(ref: string): boolean {
  return isLocalActionRef(ref) || PINNED_REF.test(ref);
}

/** The most shards the action takes: the summary schema's cap. */
export const MAX_WORKFLOW_SHARDS = MAX_SHARDS;

export function runnerKind(options: WorkflowOptions): RunnerKind {
  return options.runner ?? "self-hosted";
}

/** How many measure jobs a run has: 1 unless the options ask for a matrix. */
export function shardCount(options: WorkflowOptions): number {
  return options.shards ?? 1;
}

/** Throws InputError naming the first option that is not safe to write into a workflow. */
export function checkWorkflowOptions(options: WorkflowOptions): void {
  const ref = options.actionRef;
  const local = isLocalActionRef(ref);
  if (
    !(local ? LOCAL_REF.test(ref) : REMOTE_REF.test(ref)) ||
    ref.split(/[/@]/).some((part) => part === ".." || (part === "." && !local))
  ) {
    throw new InputError(
      `action ref ${JSON.stringify(ref)} is not owner/repo[/path]@ref or ./path (letters, digits, . _ - / only: no spaces, quotes or \${{ }})`,
    );
  }
  if (!RUNNER_KINDS.includes(runnerKind(options)))
    throw new InputError(
      `runner ${JSON.stringify(options.runner)} is not one of ${RUNNER_KINDS.join(", ")}`,
    );
  if (options.runnerLabels.length === 0 || options.runnerLabels.length > 10)
    throw new InputError(
      "runner labels: give 1 to 10 labels, e.g. self-hosted,linux,x64,benchgate",
    );
  for (const label of options.runnerLabels) {
    if (!LABEL.test(label))
      throw new InputError(
        `runner label ${JSON.stringify(label)} is not a label (letters, digits, . _ - only)`,
      );
  }
  const branch = options.defaultBranch;
  if (!BRANCH.test(branch) || /\.\.|\/\/|\/$|\.lock$|\.$/.test(branch))
    throw new InputError(`default branch ${JSON.stringify(branch)} is not a branch name`);
  const shards = shardCount(options);
  // The action takes no more (action/action.yml, shard and shards), and the count is written
  // into the workflows as a number.
  if (!Number.isSafeInteger(shards) || shards < 1 || shards > MAX_WORKFLOW_SHARDS)
    throw new InputError(
      `shards: give a whole number from 1 to ${MAX_WORKFLOW_SHARDS}, got ${shards}`,
    );
}
