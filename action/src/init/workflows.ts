// The three gate workflows that `benchgate init` writes and that benchgate's own repository runs
// (docs/workflows.md). Pure: options in, file texts out. Each rule that keeps the
// self-hosted runner safe lives here once, next to its reason (docs/threat-model.md, W1–W11):
// least-privilege permissions per job, no `${{ }}` inside any `run:`, third-party actions pinned
// to commit SHAs, checkout credentials never persisted, and the self-hosted runner reached only
// by a same-repository pull request, a command a writer authorized, or a push to the default
// branch.
import {
  WORKFLOW_PATHS,
  checkWorkflowOptions,
  isLocalActionRef,
  runnerKind,
  shardCount,
  type WorkflowOptions,
} from "./workflow-options.ts";
import {
  actionUses,
  configCheckout,
  harnessSteps,
  indent,
  measureSteps,
  reportSteps,
  runsOn,
  rustSteps,
  step,
  subjectCheckout,
  type CacheWrites,
  type Lines,
} from "./workflow-steps.ts";
import { yamlScalar } from "./yaml-scalar.ts";

export {
  DEFAULT_ACTION_REF,
  DEFAULT_BRANCH,
  DEFAULT_RUNNER_LABELS,
  HARNESS_DIR,
  MAX_WORKFLOW_SHARDS,
  WORKFLOW_PATHS,
  isPinnedActionRef,
  type WorkflowOptions,
} from "./workflow-options.ts";

const MEASURE_TIMEOUT_MINUTES = 120;
const REPORT_TIMEOUT_MINUTES = 15;
const AUTHORIZE_TIMEOUT_MINUTES = 10;

/** The job that runs the change's code may read the repository, and nothing else. */
const MEASURE_PERMISSIONS = ["permissions:", "  contents: read"] as const;

const REPORT_PERMISSIONS = [
  "permissions:",
  "  contents: read",
  "  pull-requests: write # the sticky comment",
  "  checks: write # the benchgate check run",
] as const;

/** The widest `[1, 2, …]` line that prettier leaves alone at 80 columns; longer lists are blocks. */
const MATRIX_LINE_WIDTH = 80;

/**
 * With shards, the measure job is a matrix: one job per shard, each on a runner with the same
 * labels. `fail-fast: false`: a shard that fails must not cancel the evidence of the others,
 * and the report job turns any failed or missing shard into an error verdict anyway.
 */
function shardMatrix(shards: number): string[] {
  const numbers = Array.from({ length: shards }, (_, i) => i + 1);
  const flow = `        shard: [${numbers.join(", ")}]`;
  return [
    "    strategy:",
    "      # Every shard runs to its end: one failing must not cancel the others' evidence, and",
    "      # the report job turns a failed or missing shard into an error verdict.",
    "      fail-fast: false",
    "      matrix:",
    ...(flow.length <= MATRIX_LINE_WIDTH
      ? [flow]
      : ["        shard:", ...numbers.map((n) => `          - ${n}`)]),
  ];
}

/**
 * The measure job: the self-hosted runner, the code under test, no write permission at all. The
 * action gets no token in this mode; the job's own read-only token stays out of .git/config.
 */
function measureJob(
  options: WorkflowOptions,
  job: {
    if?: string;
    needs?: string;
    concurrency?: Lines;
    subject: Lines;
    cache: CacheWrites;
    harnessRef: string;
    inputs: Lines;
  },
): string[] {
  const shards = shardCount(options);
  return [
    "  measure:",
    shards > 1 ? `    name: measure (shard \${{ matrix.shard }}/${shards})` : "    name: measure",
    ...(job.needs === undefined ? [] : [`    needs: ${job.needs}`]),
    ...(job.if === undefined ? [] : [`    if: ${job.if}`]),
    ...(shards > 1 ? shardMatrix(shards) : []),
    `    runs-on: ${runsOn(options)}`,
    `    timeout-minutes: ${MEASURE_TIMEOUT_MINUTES}`,
    ...indent(4, MEASURE_PERMISSIONS),
    ...indent(4, job.concurrency ?? []),
    "    steps:",
    ...indent(6, [
      ...job.subject,
      ...rustSteps(options, job.cache),
      ...(isLocalActionRef(options.actionRef)
        ? harnessSteps(job.harnessRef, "a trusted commit, not the change")
        : []),
      ...measureSteps(options, job.inputs),
    ]),
  ];
}

/**
 * The report job: GitHub-hosted, holds the write scopes, never runs the change's code. It reads
 * the base commit's config and the measure job's artifact as data. `!cancelled()`: it also runs
 * when measuring failed, so the check says so instead of going missing (docs/threat-model.md,
 * W9 and V2); a cancelled run (a newer push superseded it) reports nothing.
 */
function reportJob(
  options: WorkflowOptions,
  job: {
    if?: string;
    needs: string;
    permissions: Lines;
    baseRef: string;
    harnessRef: string;
    inputs: Lines;
  },
): string[] {
  return [
    "  report:",
    "    name: report",
    `    needs: ${job.needs}`,
    `    if: \${{ !cancelled()${job.if === undefined ? "" : ` && ${job.if}`} }}`,
    "    runs-on: ubuntu-latest # GitHub-hosted: never the benchmark machine",
    `    timeout-minutes: ${REPORT_TIMEOUT_MINUTES}`,
    ...indent(4, job.permissions),
    "    steps:",
    ...indent(6, [
      ...configCheckout(job.baseRef),
      ...(isLocalActionRef(options.actionRef)
        ? harnessSteps(job.harnessRef, "a trusted commit, not the change")
        : []),
      ...reportSteps(options, job.inputs),
    ]),
  ];
}

function prWorkflow(options: WorkflowOptions): string[] {
  const sameRepo = "github.event.pull_request.head.repo.full_name == github.repository";
  const base = "${{ github.event.pull_request.base.sha }}";
  const hosted = runnerKind(options) === "github-hosted";
  return [
    "# benchgate on pull requests: benchmarks the base and the head of every pull request opened",
    `# from this repository on ${hosted ? "a GitHub-hosted runner" : "the pinned self-hosted runner"} and reports one verdict (the`,
    '# "benchgate" check, one sticky comment, the job summary). Written by `benchgate init`.',
    "#",
    `# Two jobs: \`measure\` runs the change's code on ${hosted ? "its own machine" : "the self-hosted runner"} with a read-only`,
    "# token; `report` (GitHub-hosted) holds the write scopes, reads the results as data and",
    "# publishes the verdict. Pull requests from forks never run here by themselves: a",
    "# maintainer's `/rebench` comment (benchgate-command.yml) benchmarks them at the commit",
    "# pinned when the command was given.",
    ...hostedNote(options),
    "name: benchgate-pr",
    "",
    "on:",
    "  pull_request:",
    "    types: [opened, synchronize, reopened]",
    "",
    "# Nothing by default: each job asks for what it uses.",
    "permissions: {}",
    "",
    "# One run per pull request: a new push cancels the run for the previous head.",
    "concurrency:",
    "  group: benchgate-pr-${{ github.event.pull_request.number }}",
    "  cancel-in-progress: true",
    "",
    "jobs:",
    ...measureJob(options, {
      // Same-repository pull requests only. A fork can rewrite this file in its own pull
      // request, so this line is not what protects the runner: approval of outside
      // contributors' runs and the runner's job-started hook are (docs/workflows.md).
      if: sameRepo,
      subject: subjectCheckout("Check out the pull request", undefined),
      cache: "restore-only",
      harnessRef: base,
      // Base and head come from the event; the config is read from the base commit.
      inputs: [],
    }),
    "",
    ...reportJob(options, {
      needs: "measure",
      if: sameRepo,
      permissions: REPORT_PERMISSIONS,
      baseRef: base,
      harnessRef: base,
      inputs: [],
    }),
  ];
}

/**
 * On a GitHub-hosted runner, what the gate can and cannot see, said in every workflow it runs:
 * the machine is shared, so timings confirm only large changes, while instruction counts hold.
 */
function hostedNote(options: WorkflowOptions): string[] {
  if (runnerKind(options) !== "github-hosted") return [];
  return [
    "#",
    "# GitHub-hosted (`benchgate init --runner github-hosted`): `measure` runs on a shared virtual",
    "# machine whose speed moves with its neighbours. Base and head are interleaved in one job on",
    "# that one machine, so a verdict is still sound, but timing verdicts are wider: the smallest",
    "# slowdown a timing can confirm is several percent, often more (the comment's MDE says how",
    "# much); smaller ones come out inconclusive, not failed. Instruction counts (gungraun suites,",
    "# under Valgrind) do not move with the load and decide 1 % changes here: prefer them. Each",
    "# run costs runner minutes: up to benchgate.yml's time-budget (builds included), plus the",
    "# set-up. benchgate's docs/github-hosted.md says more.",
  ];
}

/** What the authorize job pins at command time and hands on to the jobs after it. */
const COMMAND_OUTPUTS = [
  "run",
  "base-sha",
  "head-sha",
  "pr-number",
  "comment-id",
  "rounds",
  "filter",
  "check-id",
] as const;

/** Action inputs of a later job, each the authorize job's output of that name. */
function pinnedInputs(names: readonly string[]): string[] {
  return names.map((name) => {
    const input = name === "comment-id" ? "command-comment-id" : name;
    return `${input}: \${{ needs.authorize.outputs.${name} }}`;
  });
}

/** The command workflow's header: what it is for, its trigger and its default permissions. */
const commandHeader = (options: WorkflowOptions): string[] => [
  "# benchgate commands in pull-request comments: `/rebench [filter] [rounds=N]` benchmarks the",
  "# pull request again, `/benchgate accept <sha> <reason>` accepts the regressions of the head's",
  "# failed benchmark, for that SHA only. Written by `benchgate init`.",
  "#",
  "# Anyone can comment, and comment runs need no approval, so the work is split: `authorize`",
  "# (GitHub-hosted) checks the commenter's permission through the API and pins the head commit",
  "# at command time; only then does `measure` run exactly that commit",
  runnerKind(options) === "github-hosted"
    ? "# (on a GitHub-hosted runner), with a read-only token; `report` publishes the verdict."
    : "# on the self-hosted runner, with a read-only token; `report` (GitHub-hosted) publishes it.",
  ...hostedNote(options),
  "name: benchgate-command",
  "",
  "on:",
  "  # zizmor flags issue_comment because a comment run needs no approval and can check out the",
  "  # pull request. Here nothing of the pull request runs before the permission check, and only",
  "  # the commit pinned by that check runs afterwards, in a job that can write nothing.",
  "  issue_comment: # zizmor: ignore[dangerous-triggers]",
  "    types: [created] # edited and deleted comments never start a run",
  "",
  "# Nothing by default: each job asks for what it uses.",
  "permissions: {}",
];

/**
 * The authorize job: GitHub-hosted, runs none of the pull request's code. It checks the
 * commenter's permission and pins the head commit that the measure job may then run.
 */
function authorizeJob(options: WorkflowOptions): string[] {
  const local = isLocalActionRef(options.actionRef);
  return [
    "  authorize:",
    "    name: authorize",
    "    # A cheap pre-filter, so that not every comment starts a job; the action parses the",
    "    # command strictly and asks the API for the commenter's permission.",
    "    if: >-",
    "      github.event.issue.pull_request &&",
    "      github.event.comment.user.type != 'Bot' &&",
    "      (contains(github.event.comment.body, '/rebench') ||",
    "      contains(github.event.comment.body, '/benchgate'))",
    "    runs-on: ubuntu-latest # GitHub-hosted: never the benchmark machine",
    `    timeout-minutes: ${AUTHORIZE_TIMEOUT_MINUTES}`,
    "    permissions:",
    "      contents: read",
    "      issues: write # reactions and replies on the command comment",
    "      pull-requests: read # the pull request's head and base at command time",
    "      checks: write # /benchgate accept records the acceptance as a passing check",
    "    outputs:",
    ...COMMAND_OUTPUTS.map((name) => `      ${name}: \${{ steps.authorize.outputs.${name} }}`),
    "    steps:",
    ...indent(6, [
      ...(local ? harnessSteps("${{ github.sha }}", "the default branch") : []),
      ...step([
        "name: Authorize the command",
        "id: authorize",
        `uses: ${actionUses(options)}`,
        "with:",
        "  mode: authorize",
      ]),
    ]),
  ];
}

function commandWorkflow(options: WorkflowOptions): string[] {
  // A job-level group may name the matrix: with one group for all of them, each shard would
  // cancel its siblings as they start. Per shard, a newer command's shard i still supersedes
  // an older command's shard i, so the older run loses every shard as before.
  const concurrency =
    shardCount(options) > 1
      ? [
          "concurrency:",
          "  # One group per shard: a single group would let each shard cancel its siblings.",
          "  group: benchgate-command-${{ github.event.issue.number }}-shard-${{ matrix.shard }}",
          "  cancel-in-progress: true",
        ]
      : [
          "concurrency:",
          "  group: benchgate-command-${{ github.event.issue.number }}",
          "  cancel-in-progress: true",
        ];
  return [
    ...commandHeader(options),
    "",
    "jobs:",
    ...authorizeJob(options),
    "",
    ...measureJob(options, {
      needs: "authorize",
      if: "needs.authorize.outputs.run == 'true'",
      // A newer command for the same pull request supersedes a queued or running one.
      concurrency,
      // Never a branch name: the branch may have moved since the writer gave the command.
      subject: subjectCheckout(
        "Check out the commit pinned at command time",
        "${{ needs.authorize.outputs.head-sha }}",
      ),
      cache: "restore-only",
      harnessRef: "${{ github.sha }}",
      inputs: pinnedInputs(["base-sha", "head-sha", "rounds", "filter"]),
    }),
    "",
    ...reportJob(options, {
      needs: "[authorize, measure]",
      if: "needs.authorize.outputs.run == 'true'",
      permissions: [
        ...REPORT_PERMISSIONS,
        "  issues: write # the 👍 or 👎 reaction on the command comment",
      ],
      baseRef: "${{ needs.authorize.outputs.base-sha }}",
      harnessRef: "${{ github.sha }}",
      // rounds: the report job checks that every round the command asked for was measured;
      // filter: budgets of benchmarks the command left out are unchecked, not broken.
      inputs: pinnedInputs(COMMAND_OUTPUTS.filter((name) => name !== "run")),
    }),
  ];
}

function mainWorkflow(options: WorkflowOptions): string[] {
  const pushed = [
    "base-sha: ${{ github.event.before }} # the branch's previous tip",
    "head-sha: ${{ github.sha }}",
  ];
  return [
    "# benchgate on the default branch: benchmarks every push against the commit before it, so a",
    "# regression that got past review is caught on the commit that brought it, and records the",
    "# commit in the benchmark history on gh-pages (the page). Written by `benchgate init`.",
    ...hostedNote(options),
    "name: benchgate-main",
    "",
    "on:",
    "  push:",
    `    branches: [${yamlScalar(options.defaultBranch)}]`,
    "",
    "# Nothing by default: each job asks for what it uses.",
    "permissions: {}",
    "",
    "# No concurrency group: GitHub keeps one pending run per group and cancels any other, so",
    "# quick pushes would lose their verdicts and history records. Every push's run waits for",
    "# the runner instead, and the history's compare-and-swap writes keep parallel reports safe.",
    "",
    "jobs:",
    ...measureJob(options, {
      subject: subjectCheckout("Check out the pushed commit", undefined),
      cache: "save",
      harnessRef: "${{ github.sha }}",
      inputs: pushed,
    }),
    "",
    ...reportJob(options, {
      needs: "measure",
      permissions: [
        "permissions:",
        "  contents: write # the history on the gh-pages branch (never a force push)",
        "  checks: write # the benchgate check run",
      ],
      baseRef: "${{ github.event.before }}",
      harnessRef: "${{ github.sha }}",
      inputs: [...pushed, "history-branch: gh-pages # docs/history.md"],
    }),
  ];
}

/** The three workflow files, by path relative to the repository root. */
export function renderWorkflows(options: WorkflowOptions): ReadonlyMap<string, string> {
  checkWorkflowOptions(options);
  const text = (lines: Lines): string => `${lines.join("\n")}\n`;
  return new Map([
    [WORKFLOW_PATHS.pr, text(prWorkflow(options))],
    [WORKFLOW_PATHS.command, text(commandWorkflow(options))],
    [WORKFLOW_PATHS.main, text(mainWorkflow(options))],
  ]);
}
