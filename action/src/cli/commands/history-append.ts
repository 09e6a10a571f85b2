// benchgate history append: one default-branch report.json → one record in history.json on the
// gh-pages branch, written compare-and-swap (docs/history.md).
import { docsUrl } from "../../version.ts";
import { InputError } from "../../errors.ts";
import { appendHistory, type AppendRequest } from "../../gate/append-history.ts";
import { GAB_DATA_FILE } from "../../gate/history-pages.ts";
import { headCommitFrom, writeContextFrom } from "../../history/github-context.ts";
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PAGES_BRANCH,
  DEFAULT_PAGES_DIR,
} from "../../history/pages-writer.ts";
import type { Machine } from "../../ports/machine.ts";
import { parseJsonText } from "../../schemas/parse-json.ts";
import { SITE_FILES } from "../../site/site-files.ts";
import { booleanFlag, integerFlag, parseFlags, stringFlag, type ParsedArgs } from "../args.ts";
import { EXIT } from "../exit-codes.ts";

const HISTORY_APPEND_HELP = `Usage: benchgate history append --report FILE --remote URL|PATH [options]

Adds the report of a default-branch commit to history.json on the gh-pages branch: one record
per commit (a re-run of the same SHA replaces its record), pushed without force and retried
with backoff when another writer got there first. A corrupt history.json stops the command;
it is never replaced. Beside history.json the same commit writes the page (${SITE_FILES.html},
its script, style and data) and a github-action-benchmark-compatible ${GAB_DATA_FILE}.
See ${docsUrl("docs/history.md")}.

Only a push (or workflow_dispatch/schedule run) on the repository's default branch may write:
pull requests, forks and other refs are refused. In GitHub Actions this is read from
GITHUB_EVENT_NAME, GITHUB_REF, GITHUB_REPOSITORY and the event payload; elsewhere pass
--event, --ref and --default-branch. A flag may not contradict what GitHub reports.

Options:
  --report FILE          report.json of the commit (from benchgate run or compare)
  --remote URL|PATH      the repository holding the pages branch (a local path works too)
  --branch NAME          the pages branch (default ${DEFAULT_PAGES_BRANCH})
  --dir DIR              directory on the branch (default ${DEFAULT_PAGES_DIR}; . for the root)
  --max-commits N        keep the newest N records (default: keep all)
  --attempts N           push attempts before giving up (default ${DEFAULT_MAX_ATTEMPTS})
  --token-env NAME       send the token in this environment variable to an https remote
                         (e.g. GITHUB_TOKEN with contents: write); never put it in the URL
  --config FILE          benchgate.yml, for budget lines (median/p50 limits of budgets:)
  --title TEXT           the page's title (default "Benchmark history")
  --sha SHA              the commit (default: GITHUB_SHA, else HEAD of --repo)
  --message TEXT         its message (first line kept)    } default: the push event's
  --author NAME          its author                       } head_commit, else git log
  --date ISO8601         its committer date               } in --repo
  --url URL              its page (https; default from GITHUB_SERVER_URL/GITHUB_REPOSITORY)
  --repo DIR             a clone to read commit metadata from (default: .)
  --event NAME           the event (default GITHUB_EVENT_NAME)
  --ref REF              the ref that was pushed (default GITHUB_REF)
  --default-branch NAME  the default branch (default: from the event payload)
  --repository O/N       only this repository may write (refuses forks running the workflow)
  --head-repository O/N  where the measured code came from (default: from the event payload)
  -h, --help             show this help

Exit codes: 0 recorded (or already recorded), 2 refused, bad usage, invalid report or corrupt
history.json, 3 git failed, the branch kept moving, or interrupted.`;

const STRING_FLAGS = [
  "report",
  "remote",
  "branch",
  "dir",
  "max-commits",
  "attempts",
  "config",
  "sha",
  "message",
  "author",
  "date",
  "url",
  "repo",
  "event",
  "ref",
  "default-branch",
  "repository",
  "head-repository",
  "token-env",
  "title",
] as const;

/** GitHub's payloads are at most a few MiB; refuse anything absurd before parsing. */
const MAX_EVENT_BYTES = 32 * 1024 * 1024;

/** The event payload at GITHUB_EVENT_PATH, size-capped and parsed strictly; none outside Actions. */
export async function readEventPayload(machine: Machine): Promise<unknown> {
  const file = machine.env["GITHUB_EVENT_PATH"];
  if (file === undefined || file === "") return undefined;
  return parseJsonText(await machine.reader.readText(file, MAX_EVENT_BYTES), file, {
    maxChars: MAX_EVENT_BYTES,
    maxDepth: 64,
  });
}

/** https://server/owner/name, when GitHub's variables name an https server and a repository. */
export function repositoryUrl(env: Readonly<Record<string, string>>): string | undefined {
  const server = env["GITHUB_SERVER_URL"];
  const repository = env["GITHUB_REPOSITORY"];
  return server?.startsWith("https://") === true && (repository ?? "") !== ""
    ? `${server}/${repository}`
    : undefined;
}

/** The flags, GitHub's variables and the event file, validated in the order users see errors. */
async function requestFrom(args: ParsedArgs, machine: Machine): Promise<AppendRequest> {
  const reportFile = stringFlag(args, "report");
  const remote = stringFlag(args, "remote");
  if (reportFile === undefined || remote === undefined)
    throw new InputError("history append needs --report FILE and --remote URL|PATH (see --help)");
  const maxCommits =
    stringFlag(args, "max-commits") === undefined
      ? undefined
      : integerFlag(args, "max-commits", 0, 1, 100_000);
  const attempts = integerFlag(args, "attempts", DEFAULT_MAX_ATTEMPTS, 1, 100);
  const { env } = machine;
  // Outside GitHub Actions there is no event file: the flags say what GitHub would.
  const payload = await readEventPayload(machine);
  const context = writeContextFrom(env, payload, {
    event: stringFlag(args, "event"),
    ref: stringFlag(args, "ref"),
    defaultBranch: stringFlag(args, "default-branch"),
    repository: stringFlag(args, "repository"),
    headRepository: stringFlag(args, "head-repository"),
  });
  const sha = stringFlag(args, "sha") ?? env["GITHUB_SHA"];
  const tokenVariable = stringFlag(args, "token-env");
  const token = tokenVariable === undefined ? undefined : env[tokenVariable];
  return {
    reportFile,
    remote,
    branch: stringFlag(args, "branch") ?? DEFAULT_PAGES_BRANCH,
    dir: stringFlag(args, "dir") ?? DEFAULT_PAGES_DIR,
    maxCommits,
    attempts,
    token: token === "" ? undefined : token,
    unsetTokenVariable:
      tokenVariable !== undefined && (token ?? "") === "" ? tokenVariable : undefined,
    configFile: stringFlag(args, "config"),
    title: stringFlag(args, "title"),
    context,
    commit: {
      sha,
      message: stringFlag(args, "message"),
      author: stringFlag(args, "author"),
      date: stringFlag(args, "date"),
      url: stringFlag(args, "url"),
    },
    pushed: sha === undefined ? {} : headCommitFrom(payload, sha),
    repo: stringFlag(args, "repo") ?? ".",
    repositoryUrl: repositoryUrl(env),
  };
}

export async function historyAppendCommand(
  argv: readonly string[],
  machine: Machine,
): Promise<number> {
  const args = parseFlags(argv, {
    ...Object.fromEntries(STRING_FLAGS.map((name) => [name, { kind: "string" } as const])),
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    machine.out(HISTORY_APPEND_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  await appendHistory(await requestFrom(args, machine), machine);
  return EXIT.pass;
}
