// The three gate workflows that `benchgate init` writes and that benchgate's own repository runs
// (SPEC §3.7, docs/workflows.md). Pure: options in, file texts out. Each rule that keeps the
// self-hosted runner safe lives here once, next to its reason (security reference §7 G1–G8):
// least-privilege permissions per job, no `${{ }}` inside any `run:`, third-party actions pinned
// to commit SHAs, checkout credentials never persisted, and the self-hosted runner reached only
// by a same-repository pull request, a command a writer authorized, or a push to the default
// branch.
import {
  WORKFLOW_PATHS,
  checkWorkflowOptions,
  isLocalActionRef,
  type WorkflowOptions,
} from "./workflow-options.ts";
import {
  actionUses,
  gateSteps,
  harnessSteps,
  indent,
  runsOn,
  step,
  subjectCheckout,
  type Lines,
} from "./workflow-steps.ts";
import { yamlScalar } from "./yaml-scalar.ts";

export {
  DEFAULT_ACTION_REF,
  DEFAULT_BRANCH,
  DEFAULT_RUNNER_LABELS,
  HARNESS_DIR,
  WORKFLOW_PATHS,
  checkWorkflowOptions,
  isLocalActionRef,
  isPinnedActionRef,
  type WorkflowOptions,
} from "./workflow-options.ts";

const GATE_TIMEOUT_MINUTES = 120;
const AUTHORIZE_TIMEOUT_MINUTES = 10;

const GATE_PERMISSIONS = [
  "permissions:",
  "  contents: read",
  "  pull-requests: write # the sticky comment",
  "  checks: write # the benchgate check run",
] as const;

function prWorkflow(options: WorkflowOptions): string[] {
  return [
    "# benchgate on pull requests: benchmarks the base and the head of every pull request opened",
    "# from this repository on the pinned self-hosted runner and reports one verdict (the",
    '# "benchgate" check, one sticky comment, the job summary). Written by `benchgate init`.',
    "#",
    "# Pull requests from forks never run here by themselves: a maintainer's `/rebench` comment",
    "# (benchgate-command.yml) benchmarks them at the commit pinned when the command was given.",
    "name: benchgate-pr",
    "",
    "on:",
    "  pull_request:",
    "    types: [opened, synchronize, reopened]",
    "",
    "# Nothing by default: the job asks for what it uses.",
    "permissions: {}",
    "",
    "# One run per pull request: a new push cancels the run for the previous head.",
    "concurrency:",
    "  group: benchgate-pr-${{ github.event.pull_request.number }}",
    "  cancel-in-progress: true",
    "",
    "jobs:",
    "  gate:",
    "    name: gate",
    "    # Same-repository pull requests only. A fork can rewrite this file in its own pull request,",
    "    # so this line is not what protects the runner: approval of outside contributors' runs",
    "    # and the runner's job-started hook are (see benchgate's docs/workflows.md).",
    "    if: github.event.pull_request.head.repo.full_name == github.repository",
    `    runs-on: ${runsOn(options)}`,
    `    timeout-minutes: ${GATE_TIMEOUT_MINUTES}`,
    ...indent(4, GATE_PERMISSIONS),
    "    steps:",
    ...indent(6, [
      ...subjectCheckout("Check out the pull request", undefined),
      ...(isLocalActionRef(options.actionRef)
        ? harnessSteps("${{ github.event.pull_request.base.sha }}", "the base, not the change")
        : []),
      // Base and head come from the event; the config is read from the base commit.
      ...gateSteps(options, []),
    ]),
  ];
}

function commandWorkflow(options: WorkflowOptions): string[] {
  const local = isLocalActionRef(options.actionRef);
  const outputs = ["run", "base-sha", "head-sha", "pr-number", "comment-id", "rounds", "filter"];
  return [
    "# benchgate commands in pull-request comments: `/rebench [filter] [rounds=N]` benchmarks the",
    "# pull request again, `/benchgate accept <reason>` accepts a known regression of the current",
    "# head. Written by `benchgate init`.",
    "#",
    "# Anyone can comment, and comment runs need no approval, so the work is split: `authorize`",
    "# (GitHub-hosted) checks the commenter's permission through the API and pins the head commit",
    "# at command time; only then does `bench` run exactly that commit on the self-hosted runner.",
    "name: benchgate-command",
    "",
    "on:",
    "  # zizmor flags issue_comment because a comment run needs no approval and can check out the",
    "  # pull request. Here nothing of the pull request runs before the permission check, and only",
    "  # the commit pinned by that check runs afterwards: the split described above.",
    "  issue_comment: # zizmor: ignore[dangerous-triggers]",
    "    types: [created] # edited and deleted comments never start a run",
    "",
    "# Nothing by default: each job asks for what it uses.",
    "permissions: {}",
    "",
    "jobs:",
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
    ...outputs.map((name) => `      ${name}: \${{ steps.authorize.outputs.${name} }}`),
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
    "",
    "  bench:",
    "    name: bench",
    "    needs: authorize",
    "    if: needs.authorize.outputs.run == 'true'",
    `    runs-on: ${runsOn(options)}`,
    `    timeout-minutes: ${GATE_TIMEOUT_MINUTES}`,
    "    permissions:",
    "      contents: read",
    "      pull-requests: write # the sticky comment",
    "      checks: write # the benchgate check run",
    "      issues: write # the 👍 or 👎 reaction on the command comment",
    "    # A newer command for the same pull request supersedes a queued or running one.",
    "    concurrency:",
    "      group: benchgate-command-${{ github.event.issue.number }}",
    "      cancel-in-progress: true",
    "    steps:",
    ...indent(6, [
      // Never a branch name: the branch may have moved since the writer gave the command.
      ...subjectCheckout(
        "Check out the commit pinned at command time",
        "${{ needs.authorize.outputs.head-sha }}",
      ),
      ...(local ? harnessSteps("${{ github.sha }}", "the default branch, not the change") : []),
      ...gateSteps(
        options,
        outputs
          .filter((name) => name !== "run")
          .map((name) => {
            const input = name === "comment-id" ? "command-comment-id" : name;
            return `${input}: \${{ needs.authorize.outputs.${name} }}`;
          }),
      ),
    ]),
  ];
}

function mainWorkflow(options: WorkflowOptions): string[] {
  return [
    "# benchgate on the default branch: benchmarks every push against the commit before it, so a",
    "# regression that got past review is caught on the commit that brought it. Written by",
    "# `benchgate init`.",
    "name: benchgate-main",
    "",
    "on:",
    "  push:",
    `    branches: [${yamlScalar(options.defaultBranch)}]`,
    "",
    "# Nothing by default: the job asks for what it uses.",
    "permissions: {}",
    "",
    "# Pushes are measured one after another, never cancelled.",
    "concurrency:",
    "  group: benchgate-main",
    "  cancel-in-progress: false",
    "",
    "jobs:",
    "  gate:",
    "    name: gate",
    `    runs-on: ${runsOn(options)}`,
    `    timeout-minutes: ${GATE_TIMEOUT_MINUTES}`,
    "    permissions:",
    "      contents: read",
    "      checks: write # the benchgate check run",
    "    steps:",
    ...indent(6, [
      ...subjectCheckout("Check out the pushed commit", undefined),
      ...(isLocalActionRef(options.actionRef)
        ? harnessSteps("${{ github.sha }}", "the pushed commit")
        : []),
      ...gateSteps(options, [
        "base-sha: ${{ github.event.before }} # the branch's previous tip",
        "head-sha: ${{ github.sha }}",
      ]),
    ]),
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
