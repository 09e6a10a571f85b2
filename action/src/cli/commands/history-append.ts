// benchgate history append: one default-branch report.json → one record in history.json on the
// gh-pages branch, written compare-and-swap (docs/history.md).
import path from "node:path";
import { InputError } from "../../errors.ts";
import { commitFromGit } from "../../history/commit-metadata.ts";
import { headCommitFrom, writeContextFrom } from "../../history/github-context.ts";
import { checkHistoryWrite } from "../../history/history-guard.ts";
import { upsertRecord, type MergeOutcome } from "../../history/history-merge.ts";
import { buildHistoryRecord, type CommitInfo } from "../../history/history-record.ts";
import { redactRemote, shortSha } from "../../history/pages-git.ts";
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PAGES_BRANCH,
  DEFAULT_PAGES_DIR,
  HISTORY_FILE,
  writePagesHistory,
} from "../../history/pages-writer.ts";
import { exportGabDataJs } from "../../history/gab-export.ts";
import { parseJsonText } from "../../schemas/parse-json.ts";
import { loadSiteAssets } from "../../site/site-assets.ts";
import { renderSite, SITE_FILES } from "../../site/site-files.ts";
import { MAX_EXTRA_FILE_BYTES } from "../../history/pages-paths.ts";
import { readConfigFile, readReportFile } from "../../ingest/read-document.ts";
import type { BenchHistory } from "../../schemas/history.gen.ts";
import { GENERATOR } from "../../version.ts";
import { budgetRules } from "../../gate/plan.ts";
import { booleanFlag, integerFlag, parseArgs, stringFlag, type ParsedArgs } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

/** github-action-benchmark's page and tools read this file; we keep it beside ours. */
const GAB_DATA_FILE = "data.js";

export const HISTORY_APPEND_HELP = `Usage: benchgate history append --report FILE --remote URL|PATH [options]

Adds the report of a default-branch commit to history.json on the gh-pages branch: one record
per commit (a re-run of the same SHA replaces its record), pushed without force and retried
with backoff when another writer got there first. A corrupt history.json stops the command;
it is never replaced. Beside history.json the same commit writes the page (${SITE_FILES.html},
its script, style and data) and a github-action-benchmark-compatible ${GAB_DATA_FILE}.
See docs/history.md.

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

function isUrl(remote: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/]+@[^/]+:/.test(remote);
}

async function readEventPayload(deps: Machine): Promise<unknown> {
  const file = deps.env["GITHUB_EVENT_PATH"];
  if (file === undefined || file === "") return undefined;
  return parseJsonText(await deps.reader.readText(file, MAX_EVENT_BYTES), file, {
    maxChars: MAX_EVENT_BYTES,
    maxDepth: 64,
  });
}

/** The commit: flags first, then the push event's head_commit, then git in --repo. */
async function commitInfo(
  args: ParsedArgs,
  payload: unknown,
  ref: string,
  deps: Machine,
): Promise<CommitInfo> {
  const env = deps.env;
  const given = {
    sha: stringFlag(args, "sha") ?? env["GITHUB_SHA"],
    message: stringFlag(args, "message"),
    author: stringFlag(args, "author"),
    date: stringFlag(args, "date"),
    url: stringFlag(args, "url"),
  };
  const event = given.sha === undefined ? {} : headCommitFrom(payload, given.sha);
  const known = definedOnly({
    sha: given.sha,
    message: given.message ?? event.message,
    author: given.author ?? event.author,
    date: given.date ?? event.date,
  });
  let commit: Pick<CommitInfo, "sha" | "message" | "author" | "date">;
  if (
    known.sha !== undefined &&
    known.message !== undefined &&
    known.author !== undefined &&
    known.date !== undefined
  ) {
    commit = { sha: known.sha, message: known.message, author: known.author, date: known.date };
  } else {
    const repo = path.resolve(deps.cwd, stringFlag(args, "repo") ?? ".");
    const fromGit = await commitFromGit(repo, known.sha ?? "HEAD", { proc: deps.proc, env });
    if (known.sha !== undefined && fromGit.sha !== known.sha)
      throw new InputError(
        `--sha ${known.sha} is ${fromGit.sha} in ${repo}; give the full 40-hex SHA`,
      );
    commit = { ...fromGit, ...known };
  }
  const { sha } = commit;
  const server = env["GITHUB_SERVER_URL"];
  const repository = env["GITHUB_REPOSITORY"];
  const url =
    given.url ??
    event.url ??
    (server?.startsWith("https://") === true && repository !== undefined && repository !== ""
      ? `${server}/${repository}/commit/${sha}`
      : undefined);
  return { ...commit, ref, ...(url === undefined ? {} : { url }) };
}

/** The same object without its undefined properties (so a spread cannot blank a value). */
function definedOnly<T extends Record<string, string | undefined>>(
  o: T,
): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: string;
  };
}

function describeOutcome(outcome: MergeOutcome, sha: string): string {
  const what = outcome.replaced.includes(sha) ? "replaced its earlier record" : "new record";
  const kept = `${outcome.history.commits.length} commits, ${outcome.history.series.length} series`;
  const dropped =
    outcome.dropped.length === 0 ? "" : `; retention dropped the ${outcome.dropped.length} oldest`;
  return `${what}; ${kept}${dropped}`;
}

export async function historyAppendCommand(
  argv: readonly string[],
  deps: Machine,
): Promise<number> {
  const args = parseArgs(argv, {
    ...Object.fromEntries(STRING_FLAGS.map((name) => [name, { kind: "string" } as const])),
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(HISTORY_APPEND_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const reportFile = stringFlag(args, "report");
  const remoteFlag = stringFlag(args, "remote");
  if (reportFile === undefined || remoteFlag === undefined)
    throw new InputError("history append needs --report FILE and --remote URL|PATH (see --help)");
  const maxCommits =
    stringFlag(args, "max-commits") === undefined
      ? undefined
      : integerFlag(args, "max-commits", 0, 1, 100_000);
  const attempts = integerFlag(args, "attempts", DEFAULT_MAX_ATTEMPTS, 1, 100);
  const system = deps;

  // The guard comes first: a refused run reads and writes nothing.
  const payload = await readEventPayload(deps);
  const context = writeContextFrom(system.env, payload, {
    event: stringFlag(args, "event"),
    ref: stringFlag(args, "ref"),
    defaultBranch: stringFlag(args, "default-branch"),
    repository: stringFlag(args, "repository"),
    headRepository: stringFlag(args, "head-repository"),
  });
  const decision = checkHistoryWrite(context);
  if (!decision.allowed) throw new InputError(`refusing to write history: ${decision.reason}`);

  const report = await readReportFile(deps.reader, reportFile);
  const configFile = stringFlag(args, "config");
  const budgets =
    configFile === undefined
      ? []
      : budgetRules(await readConfigFile(deps.reader, configFile), configFile);
  const info = await commitInfo(args, payload, context.ref, deps);
  const now = deps.clock.date().toISOString();
  const record = buildHistoryRecord(report, info, { recordedAt: now, budgets });

  const remote = isUrl(remoteFlag) ? remoteFlag : path.resolve(system.cwd, remoteFlag);
  const tokenVar = stringFlag(args, "token-env");
  const token = tokenVar === undefined ? undefined : system.env[tokenVar];
  if (tokenVar !== undefined && (token === undefined || token === ""))
    throw new InputError(`--token-env ${tokenVar}: that environment variable is not set`);
  const branch = stringFlag(args, "branch") ?? DEFAULT_PAGES_BRANCH;
  const dir = stringFlag(args, "dir") ?? DEFAULT_PAGES_DIR;
  const title = stringFlag(args, "title");
  const assets = await loadSiteAssets();
  const repositoryUrl =
    system.env["GITHUB_SERVER_URL"]?.startsWith("https://") === true &&
    (system.env["GITHUB_REPOSITORY"] ?? "") !== ""
      ? `${system.env["GITHUB_SERVER_URL"]}/${system.env["GITHUB_REPOSITORY"]}`
      : undefined;
  // The page and data.js are rebuilt from the merged history on every attempt, so they always
  // show exactly what history.json holds in the same commit. data.js is github-action-benchmark's
  // verbose format (about 6× history.json): past the per-file cap it is left out with a warning
  // rather than stopping every later append.
  let gabSkipped: number | undefined;
  const extraFiles = (history: BenchHistory): ReadonlyMap<string, string> => {
    const files = new Map(renderSite(history, assets, title === undefined ? {} : { title }).files);
    const gab = exportGabDataJs(
      history,
      repositoryUrl === undefined ? {} : { repoUrl: repositoryUrl },
    );
    const bytes = Buffer.byteLength(gab);
    gabSkipped = bytes > MAX_EXTRA_FILE_BYTES ? bytes : undefined;
    if (gabSkipped === undefined) files.set(GAB_DATA_FILE, gab);
    return files;
  };
  let outcome: MergeOutcome | undefined;
  const interrupts = system.interrupts();
  try {
    const result = await writePagesHistory(
      { remote, branch, dir, ...(token === undefined ? {} : { token }) },
      {
        transform: (current) => {
          outcome = upsertRecord(current, record, {
            updatedAt: now,
            generator: GENERATOR,
            ...(maxCommits === undefined ? {} : { maxCommits }),
          });
          return outcome.history;
        },
        extraFiles,
        message: `benchgate: history for ${shortSha(info.sha)} ${record.commit.message}`.slice(
          0,
          200,
        ),
      },
      {
        proc: system.proc,
        dirs: system.dirs,
        writer: deps.writer,
        env: system.env,
        progress: (line) => deps.err(`benchgate: history: ${line}\n`),
        signal: interrupts.signal,
      },
      { maxAttempts: attempts },
    );
    if (gabSkipped !== undefined)
      deps.err(
        `benchgate: warning: ${GAB_DATA_FILE} would be ${gabSkipped} bytes (over ${MAX_EXTRA_FILE_BYTES}); not written this time (--max-commits keeps the history smaller); history.json and the page were\n`,
      );
    const where = `${redactRemote(remote)} ${branch}:${dir === "." ? "" : `${dir}/`}${HISTORY_FILE}`;
    const detail = outcome === undefined ? "" : ` (${describeOutcome(outcome, info.sha)})`;
    deps.out(
      result.status === "pushed"
        ? `recorded ${info.sha} in ${where} as ${shortSha(result.commit)}${detail}\n`
        : `${info.sha} is already recorded in ${where}; nothing to push\n`,
    );
    if (outcome?.dropped.includes(info.sha) === true)
      deps.err(
        `benchgate: warning: ${info.sha} is older than the newest ${maxCommits ?? 0} records and was dropped by --max-commits\n`,
      );
    return EXIT.pass;
  } finally {
    interrupts.dispose();
  }
}
