// The steps the gate workflows are made of, as YAML lines: the checkouts, the build of a local
// action from a trusted commit, the measure and report steps and the artifact between them. Pure.
import { pinnedUses } from "./pinned-actions.ts";
import { RELEASED_ACTION } from "./released-action.ts";
import {
  DEFAULT_ACTION_REF,
  HARNESS_DIR,
  HOSTED_RUNNER,
  isLocalActionRef,
  isPinnedActionRef,
  runnerKind,
  shardCount,
  type WorkflowOptions,
} from "./workflow-options.ts";
import { yamlScalar } from "./yaml-scalar.ts";

export type Lines = readonly string[];

export function indent(spaces: number, lines: Lines): string[] {
  return lines.map((line) => (line === "" ? line : " ".repeat(spaces) + line));
}

export function step(fields: Lines): string[] {
  return fields.map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`));
}

function checkout(name: string, options: Lines): string[] {
  return step([
    `name: ${name}`,
    `uses: ${pinnedUses("checkout")}`,
    "with:",
    ...indent(2, options),
    // The job's token stays out of .git/config, where the benchmarked code could read it.
    "  persist-credentials: false",
  ]);
}

/** Checkout of the code under test: full history, since the gate makes worktrees of two commits. */
export function subjectCheckout(name: string, ref: string | undefined): string[] {
  return checkout(name, [
    ...(ref === undefined ? [] : [`ref: ${ref}`]),
    "fetch-depth: 0 # the base and the head commit, each checked out in a worktree",
  ]);
}

/** For `./path` refs: benchgate's own source from a trusted commit, built (dist/ is not committed). */
export function harnessSteps(trustedRef: string, why: string): string[] {
  return [
    ...checkout(`Check out benchgate itself (${why})`, [
      `ref: ${trustedRef}`,
      `path: ${HARNESS_DIR}`,
    ]),
    ...step([
      "name: Set up Node",
      `uses: ${pinnedUses("setupNode")}`,
      "with:",
      "  node-version: 24",
      "  package-manager-cache: false # no cache shared between trusted and untrusted runs",
    ]),
    ...step([
      "name: Build the action bundle",
      `working-directory: ${HARNESS_DIR}`,
      "run: npm ci --no-audit --no-fund && npm run build",
    ]),
  ];
}

export function actionUses(options: WorkflowOptions): string {
  const ref = options.actionRef;
  // Not GitHub's `$/path`, which zizmor suggests: that is the workflow's own commit, for a pull
  // request the change itself, and it would still lack the bundle built above.
  if (isLocalActionRef(ref))
    return `./${HARNESS_DIR}/${ref.slice(2)} # zizmor: ignore[self-repository]`;
  // The release this SHA is, as a comment: people read it, and Dependabot and Renovate update
  // the pin and the comment together.
  if (RELEASED_ACTION !== undefined && ref === DEFAULT_ACTION_REF)
    return `${ref} # ${RELEASED_ACTION.tag}`;
  // Said where it is used, and left for zizmor's unpinned-uses to report: hiding it would let a
  // moved tag run other code with this job's token.
  return isPinnedActionRef(ref)
    ? ref
    : `${ref} # NOT PINNED: use the release's 40-hex commit SHA (benchgate init --action-ref)`;
}

/**
 * Whether the cargo cache may be written from this workflow. Only pushes to the default branch
 * (reviewed code) save it: a command run shares the default branch's cache scope, so a fork's
 * code measured by /rebench could otherwise leave build outputs that later trusted runs restore.
 */
export type CacheWrites = "save" | "restore-only";

/**
 * The measure job's Rust set-up: the toolchain, and on a GitHub-hosted runner (a fresh machine
 * each time) the cargo cache and Valgrind. A self-hosted runner keeps ~/.cargo and benchgate's
 * build cache (~/.cache/benchgate: target-base/ and target-head/) between runs by itself.
 */
export function rustSteps(options: WorkflowOptions, writes: CacheWrites): string[] {
  const toolchain = step([
    "name: Install the Rust toolchain",
    `uses: ${pinnedUses("rustToolchain")}`,
    "with:",
    "  # A rust-toolchain.toml in the repository still decides, in each worktree benchgate builds.",
    "  toolchain: stable",
  ]);
  if (runnerKind(options) === "self-hosted")
    return [
      ...toolchain,
      "# No cargo cache action: this runner keeps ~/.cargo and benchgate's build cache",
      "# (~/.cache/benchgate) between runs.",
    ];
  return [
    ...toolchain,
    ...step([
      "name: Restore the cargo cache",
      `uses: ${pinnedUses("rustCache")}`,
      "with:",
      "  shared-key: benchgate # the same cache in all three workflows",
      "  # benchgate builds base and head into ~/.cache/benchgate (target-base/, target-head/),",
      "  # not ./target.",
      "  cache-targets: false",
      "  cache-directories: ~/.cache/benchgate",
      writes === "save"
        ? "  save-if: true # a push to the default branch: reviewed code"
        : "  save-if: false # this job runs a pull request's code: it restores, never saves",
    ]),
    ...step([
      "name: Install Valgrind (gungraun suites count instructions under it)",
      "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends valgrind",
    ]),
  ];
}

/** The measure job's folder, handed to the report job as an artifact of the same run. */
const MEASURED_ARTIFACT = "benchgate-measured-${{ github.run_attempt }}";

/** In a matrix, each shard's folder is an artifact of its own (names are unique in a run). */
const shardArtifact = (shard: string): string => `${MEASURED_ARTIFACT}-shard-${shard}`;

/**
 * The measure job's steps: the action benchmarks with no token (mode: measure), and the folder
 * is kept as an artifact even when it failed (its logs say why). Every value reaches the action
 * as an input, never through a shell (docs/threat-model.md, W4); in a matrix that includes the
 * shard this job measures.
 */
export function measureSteps(options: WorkflowOptions, inputs: Lines): string[] {
  const shards = shardCount(options);
  return [
    ...step([
      "name: Benchmark base and head",
      `uses: ${actionUses(options)}`,
      "with:",
      "  mode: measure",
      ...(shards > 1 ? [`  shard: \${{ matrix.shard }}/${shards}`] : []),
      "  out: ${{ runner.temp }}/benchgate",
      ...indent(2, inputs),
    ]),
    ...step([
      "name: Keep the summaries, report and logs for the report job",
      "if: always()",
      `uses: ${pinnedUses("uploadArtifact")}`,
      "with:",
      `  name: ${shards > 1 ? shardArtifact("${{ matrix.shard }}") : MEASURED_ARTIFACT}`,
      "  path: ${{ runner.temp }}/benchgate",
      "  if-no-files-found: ignore",
      "  retention-days: 14",
    ]),
  ];
}

/** One download of a measure job's artifact, as data; a missing one is the action's to report. */
function fetchMeasured(name: string, artifact: string, folder: string): string[] {
  return step([
    `name: ${name}`,
    `uses: ${pinnedUses("downloadArtifact")}`,
    "continue-on-error: true # a missing artifact is reported as an error verdict below",
    "with:",
    `  name: ${artifact}`,
    `  path: \${{ runner.temp }}/${folder}`,
  ]);
}

/**
 * The report job's steps: the measure job's artifact is fetched as data (a missing one is the
 * action's error to report, so the step may fail without stopping the job), then the action
 * decides with the base commit's config and publishes (mode: report). In a matrix every shard's
 * artifact goes to its own shard-<i> folder, and `shards` tells the action how many to expect:
 * the workflow, not the artifacts that came back, says how many there were.
 */
export function reportSteps(options: WorkflowOptions, inputs: Lines): string[] {
  const shards = shardCount(options);
  const fetches =
    shards > 1
      ? Array.from({ length: shards }, (_, i) =>
          fetchMeasured(
            `Fetch shard ${i + 1}'s results (data only, never run)`,
            shardArtifact(String(i + 1)),
            `measured/shard-${i + 1}`,
          ),
        ).flat()
      : fetchMeasured(
          "Fetch the measure job's results (data only, never run)",
          MEASURED_ARTIFACT,
          "measured",
        );
  return [
    ...fetches,
    ...step([
      "name: Decide and report",
      `uses: ${actionUses(options)}`,
      "with:",
      "  mode: report",
      "  results: ${{ runner.temp }}/measured",
      ...(shards > 1 ? [`  shards: ${shards}`] : []),
      "  measure-result: ${{ needs.measure.result }}",
      "  out: ${{ runner.temp }}/benchgate",
      ...indent(2, inputs),
    ]),
  ];
}

/** The report job's checkout: the base commit only, for its benchgate.yml (never run). */
export function configCheckout(ref: string): string[] {
  return checkout("Check out the base commit (its benchgate.yml decides)", [`ref: ${ref}`]);
}

/** The measure job's `runs-on:`. */
export function runsOn(options: WorkflowOptions): string {
  return runnerKind(options) === "github-hosted"
    ? `${HOSTED_RUNNER} # GitHub-hosted: a shared machine, see the header`
    : `[${options.runnerLabels.map(yamlScalar).join(", ")}]`;
}
