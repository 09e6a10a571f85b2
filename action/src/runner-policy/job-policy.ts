// The runner's own check before any job starts (docs/threat-model.md, R2): a root-owned
// job-started hook on the benchmark machine (ACTIONS_RUNNER_HOOK_JOB_STARTED) asks this policy
// whether the job may run. It is the line a workflow file cannot move: a fork can rewrite
// benchgate-pr.yml in its pull request, but not the runner's hook nor the event GitHub sends.
// Pure: the runner's environment and the event payload are parameters. Anything unexpected
// refuses (fail closed); no network is used, so the hook cannot hang on an outage.

export interface JobFacts {
  /** GITHUB_EVENT_NAME */
  readonly eventName: string;
  /** GITHUB_REPOSITORY, owner/name */
  readonly repository: string;
  /** GITHUB_REF */
  readonly ref: string;
  /** GITHUB_WORKFLOW_REF: owner/name/.github/workflows/file.yml@ref */
  readonly workflowRef: string;
  /** The parsed GITHUB_EVENT_PATH payload. */
  readonly payload: unknown;
}

interface JobPolicy {
  readonly defaultBranch: string;
  /** Workflow file names allowed on this runner (benchgate-pr.yml, …). */
  readonly workflows: ReadonlySet<string>;
}

type Decision =
  { readonly allow: true; readonly why: string } | { readonly allow: false; readonly why: string };

const allow = (why: string): Decision => ({ allow: true, why });
const refuse = (why: string): Decision => ({ allow: false, why });

function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== "object" || Array.isArray(at)) return undefined;
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/** owner/name/.github/workflows/<file>@<ref> → its parts, or undefined when it is not that. */
export function parseWorkflowRef(
  workflowRef: string,
): { repository: string; file: string; ref: string } | undefined {
  const match =
    /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\/\.github\/workflows\/([A-Za-z0-9_.-]+\.ya?ml)@(refs\/[A-Za-z0-9_./-]+)$/.exec(
      workflowRef,
    );
  if (match === null) return undefined;
  const [, repository = "", file = "", ref = ""] = match;
  return { repository, file, ref };
}

export function decideJob(facts: JobFacts, policy: JobPolicy): Decision {
  const defaultRef = `refs/heads/${policy.defaultBranch}`;
  if (facts.payload === null || typeof facts.payload !== "object" || Array.isArray(facts.payload))
    return refuse("the event payload is not an object");
  const workflow = parseWorkflowRef(facts.workflowRef);
  if (workflow === undefined)
    return refuse(
      `GITHUB_WORKFLOW_REF ${JSON.stringify(facts.workflowRef)} is not a workflow of a repository`,
    );
  if (workflow.repository !== facts.repository)
    return refuse(
      `the workflow ${workflow.repository}/${workflow.file} belongs to another repository than ${facts.repository}`,
    );
  if (!policy.workflows.has(workflow.file))
    return refuse(
      `the workflow ${workflow.file} is not one of this runner's (${[...policy.workflows].join(", ")})`,
    );
  switch (facts.eventName) {
    case "push":
      if (facts.ref !== defaultRef || workflow.ref !== defaultRef)
        return refuse(`a push to ${facts.ref}, not to the default branch ${defaultRef}`);
      return allow(`a push to ${defaultRef}`);
    case "issue_comment":
      // Comment workflows always run the default branch's file; its authorize job (GitHub-hosted)
      // has checked the commenter's permission and pinned the commit before this job was queued.
      if (workflow.ref !== defaultRef)
        return refuse(`an issue_comment workflow from ${workflow.ref}, not the default branch`);
      return allow(`a command workflow from ${defaultRef}`);
    case "pull_request": {
      // The payload is GitHub's, not the pull request's: its head repository cannot be forged.
      const head = field(facts.payload, "pull_request", "head", "repo", "full_name");
      const base = field(facts.payload, "pull_request", "base", "repo", "full_name");
      if (typeof head !== "string" || typeof base !== "string")
        return refuse("a pull_request event without head and base repositories (a deleted fork?)");
      if (base !== facts.repository || head !== facts.repository)
        return refuse(
          `a pull request from ${head} into ${base}: fork code never runs here by itself (a maintainer's /rebench pins it)`,
        );
      return allow(`a pull request from a branch of ${facts.repository}`);
    }
    default:
      // workflow_dispatch (any writer can fire it with any inputs), pull_request_target,
      // workflow_run, schedule, …: none of benchgate's workflows runs on them here.
      return refuse(`${facts.eventName} jobs never run on the benchmark runner`);
  }
}
