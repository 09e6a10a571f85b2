// benchgate runner-hook: the benchmark runner's job-started check (docs/runner-host.md). The
// runner runs it before every job, as root-owned ACTIONS_RUNNER_HOOK_JOB_STARTED; a non-zero
// exit stops the job before any of its steps. Everything it reads comes from the runner
// (GITHUB_* variables and the event payload GitHub sent), never from the workflow file.
import { InputError } from "../../errors.ts";
import { decideJob } from "../../runner-policy/job-policy.ts";
import { parseJsonText } from "../../schemas/parse-json.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const MAX_EVENT_BYTES = 25 * 1024 * 1024;
const DEFAULT_WORKFLOWS = "benchgate-pr.yml,benchgate-command.yml,benchgate-main.yml";

const RUNNER_HOOK_HELP = `Usage: benchgate runner-hook [--default-branch main] [--workflows a.yml,b.yml]

The self-hosted benchmark runner's job-started check. Allows only:
  push          to the default branch, from one of the workflows
  issue_comment the command workflow of the default branch (its authorize job checked the
                commenter's permission and pinned the commit)
  pull_request  from a branch of this repository (never a fork's)
and refuses everything else (workflow_dispatch, pull_request_target, workflow_run, schedule, a
workflow of another file, repository or branch), printing why. Reads GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_REF and GITHUB_WORKFLOW_REF; uses no network.

Options:
  --default-branch NAME   the repository's default branch (default: main)
  --workflows LIST        workflow files allowed on this runner (default: ${DEFAULT_WORKFLOWS})
  -h, --help              show this help

Exit codes: 0 the job may run, 1 refused, 2 bad usage or an unreadable event.`;

export async function runnerHookCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    "default-branch": { kind: "string" },
    workflows: { kind: "string" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(RUNNER_HOOK_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const env = deps.env;
  const need = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === "")
      throw new InputError(`${name} is not set: run this as the runner's job-started hook`);
    return value;
  };
  const eventPath = need("GITHUB_EVENT_PATH");
  const payload = parseJsonText(await deps.reader.readText(eventPath, MAX_EVENT_BYTES), eventPath, {
    maxChars: MAX_EVENT_BYTES,
    maxDepth: 64,
  });
  const decision = decideJob(
    {
      eventName: need("GITHUB_EVENT_NAME"),
      repository: need("GITHUB_REPOSITORY"),
      ref: env["GITHUB_REF"] ?? "",
      workflowRef: need("GITHUB_WORKFLOW_REF"),
      payload,
    },
    {
      defaultBranch: stringFlag(args, "default-branch") ?? "main",
      workflows: new Set(
        (stringFlag(args, "workflows") ?? DEFAULT_WORKFLOWS).split(",").map((w) => w.trim()),
      ),
    },
  );
  if (decision.allow) {
    deps.err(`benchgate runner-hook: allowed: ${decision.why}\n`);
    return EXIT.pass;
  }
  deps.err(`benchgate runner-hook: refused: ${decision.why}\n`);
  return EXIT.gateFailed;
}
