// One default-branch report.json → one record in history.json on the gh-pages branch, written
// compare-and-swap (docs/history.md; the write itself: write-history-pages.ts). Shared by
// `benchgate history append` and the action's report job on a push: each gathers the request
// its own way (flags and the event file; typed inputs and the event it already parsed), and
// both get the same guard, record and push.
import path from "node:path";
import { InputError } from "../errors.ts";
import { commitFromGit } from "../history/commit-metadata.ts";
import { checkHistoryWrite, type WriteContext } from "../history/history-guard.ts";
import { upsertRecord, type MergeOutcome } from "../history/history-merge.ts";
import {
  buildHistoryRecord,
  type CommitInfo,
  type HistoryRecord,
} from "../history/history-record.ts";
import { shortSha } from "../history/pages-git.ts";
import type { Machine } from "../ports/machine.ts";
import { readConfigFile, readReportFile } from "../ingest/read-document.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { GENERATOR } from "../version.ts";
import { budgetRules } from "./plan.ts";
import { writeHistoryPages } from "./write-history-pages.ts";

/** What the caller knows about the commit; git fills in the rest. */
interface CommitFacts {
  readonly sha?: string | undefined;
  readonly message?: string | undefined;
  readonly author?: string | undefined;
  readonly date?: string | undefined;
  readonly url?: string | undefined;
}

export interface AppendRequest {
  /** report.json of the commit (from `run` or `compare`). */
  readonly reportFile: string;
  /** The repository holding the pages branch: a git URL, or a path (against machine.cwd). */
  readonly remote: string;
  readonly branch: string;
  /** The directory on the branch ("." for its root). */
  readonly dir: string;
  /** Keep the newest N records (all when absent). */
  readonly maxCommits?: number | undefined;
  /** Push attempts before giving up. */
  readonly attempts: number;
  /** The token for an https remote: sent to git in an HTTP header, never in the URL. */
  readonly token?: string | undefined;
  /**
   * The variable that was to hold the token but is unset or empty (--token-env). It is reported
   * only after the guard, the report and the commit were checked, so that a refusal comes first.
   */
  readonly unsetTokenVariable?: string | undefined;
  /** benchgate.yml, for its budget lines. */
  readonly configFile?: string | undefined;
  /** The page's title. */
  readonly title?: string | undefined;
  /** Who is writing, from GitHub's variables, the event and flags: the guard's only input. */
  readonly context: WriteContext;
  /** The commit as the caller was told it (flags, or the action's head SHA); wins over `pushed`. */
  readonly commit: CommitFacts;
  /** The commit as the push event's head_commit describes it, when it is `commit.sha`. */
  readonly pushed: Partial<CommitInfo>;
  /** A clone to read what is still missing from `git log` (against machine.cwd). */
  readonly repo: string;
  /** https://server/owner/name: the commit's page when nothing else names one, and data.js's. */
  readonly repositoryUrl?: string | undefined;
}

interface AppendResult {
  /** "unchanged": the commit was already recorded exactly so; nothing was pushed. */
  readonly status: "pushed" | "unchanged";
  /** The recorded commit. */
  readonly sha: string;
  /** The pages branch's tip afterwards. */
  readonly pagesCommit: string;
}

/** The same object without its undefined properties (so a spread cannot blank a value). */
function definedOnly<T extends Record<string, string | undefined>>(
  o: T,
): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: string;
  };
}

/** The commit: what the caller says first, then the push event's head_commit, then git. */
async function commitInfo(request: AppendRequest, machine: Machine): Promise<CommitInfo> {
  const given = request.commit;
  const event = request.pushed;
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
    const repo = path.resolve(machine.cwd, request.repo);
    const ports = { proc: machine.proc, env: machine.env };
    const fromGit = await commitFromGit(repo, known.sha ?? "HEAD", ports);
    if (known.sha !== undefined && fromGit.sha !== known.sha)
      throw new InputError(
        `--sha ${known.sha} is ${fromGit.sha} in ${repo}; give the full 40-hex SHA`,
      );
    commit = { ...fromGit, ...known };
  }
  const { repositoryUrl } = request;
  const url =
    given.url ??
    event.url ??
    (repositoryUrl === undefined ? undefined : `${repositoryUrl}/commit/${commit.sha}`);
  return { ...commit, ref: request.context.ref, ...(url === undefined ? {} : { url }) };
}

function describeOutcome(outcome: MergeOutcome, sha: string): string {
  const what = outcome.replaced.includes(sha) ? "replaced its earlier record" : "new record";
  const kept = `${outcome.history.commits.length} commits, ${outcome.history.series.length} series`;
  const dropped =
    outcome.dropped.length === 0 ? "" : `; retention dropped the ${outcome.dropped.length} oldest`;
  return `${what}; ${kept}${dropped}`;
}

/** The guard, then the record: the report, its budget lines and the commit. */
async function checkedRecord(
  request: AppendRequest,
  now: string,
  machine: Machine,
): Promise<HistoryRecord> {
  // The guard comes first: a refused run reads and writes nothing.
  const decision = checkHistoryWrite(request.context);
  if (!decision.allowed) throw new InputError(`refusing to write history: ${decision.reason}`);
  const report = await readReportFile(machine.reader, request.reportFile);
  const { configFile } = request;
  const budgets =
    configFile === undefined
      ? []
      : budgetRules(await readConfigFile(machine.reader, configFile), configFile);
  const info = await commitInfo(request, machine);
  return buildHistoryRecord(report, info, { recordedAt: now, budgets });
}

/**
 * Records the report's commit in the history on the pages branch. Progress and warnings go to
 * machine.err, the one result line to machine.out. Throws InputError when refused or for a bad
 * report, config or corrupt history.json; ToolError when git fails or the branch kept moving;
 * InterruptedError on Ctrl-C.
 */
export async function appendHistory(
  request: AppendRequest,
  machine: Machine,
): Promise<AppendResult> {
  const now = machine.clock.date().toISOString();
  const record = await checkedRecord(request, now, machine);
  const { sha } = record.commit;
  const { token, unsetTokenVariable } = request;
  if (unsetTokenVariable !== undefined)
    throw new InputError(`--token-env ${unsetTokenVariable}: that environment variable is not set`);
  let outcome: MergeOutcome | undefined;
  const transform = (current: BenchHistory | undefined): BenchHistory => {
    outcome = upsertRecord(current, record, {
      updatedAt: now,
      generator: GENERATOR,
      ...(request.maxCommits === undefined ? {} : { maxCommits: request.maxCommits }),
    });
    return outcome.history;
  };
  const { result, where } = await writeHistoryPages(
    {
      remote: request.remote,
      branch: request.branch,
      dir: request.dir,
      attempts: request.attempts,
      token,
      title: request.title,
      repositoryUrl: request.repositoryUrl,
    },
    { transform, message: `benchgate: history for ${shortSha(sha)} ${record.commit.message}` },
    machine,
  );
  const detail = outcome === undefined ? "" : ` (${describeOutcome(outcome, sha)})`;
  machine.out(
    result.status === "pushed"
      ? `recorded ${sha} in ${where} as ${shortSha(result.commit)}${detail}\n`
      : `${sha} is already recorded in ${where}; nothing to push\n`,
  );
  if (outcome?.dropped.includes(sha) === true)
    machine.err(
      `benchgate: warning: ${sha} is older than the newest ${request.maxCommits ?? 0} records and was dropped by --max-commits\n`,
    );
  return { status: result.status, sha, pagesCommit: result.commit };
}
