// Writing the history to the gh-pages branch compare-and-swap (docs/history.md, "Compare-and-swap"; docs/threat-model.md, H2):
// read the branch tip, apply the change to what is there, commit on top of that tip and push
// without force. The remote accepts the push only as a fast-forward of the tip we read, so a
// writer that raced us makes our push fail instead of being overwritten; we then start over
// from the new tip (re-reading, re-applying), after a jittered, growing pause, a bounded number
// of times. Nothing here ever forces a push.
//
// - First run (H4): no branch on the remote → an orphan commit creates it.
// - Corrupt history (H4): unreadable, unparseable or invalid history.json → InputError naming
//   the file and JSON path, and nothing is written. It is never replaced by an empty history
//   (the read: pages-reader.ts).
// - Interrupt (H5): the signal is checked after the commit is made and before the push, so a
//   Ctrl-C up to that point leaves the remote as it was; the scratch clone is always removed.
// - Extra files: `extraFiles(history)` returns more files for the directory (the data.js of
//   github-action-benchmark, the page). Their paths are checked here; callers must not derive
//   them from benchmark names.
import { InputError, ToolError } from "../errors.ts";
import type { FileWriter } from "../ports/files.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { MAX_BYTES } from "../ingest/read-document.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { serializeHistory } from "./history-json.ts";
import {
  checkBranch,
  checkRemote,
  fetchTip,
  gitOk,
  lsTree,
  pushCommit,
  redactRemote,
  shortSha,
  tokenEnv,
  type GitPorts,
} from "./pages-git.ts";
import { readHistoryAt } from "./pages-reader.ts";
import { buildTree, commitTree, treeOf } from "./pages-tree.ts";
import {
  HISTORY_FILE,
  checkPagesDir,
  pagesPath,
  type PagesFiles,
  checkExtraFiles,
} from "./pages-paths.ts";

export const DEFAULT_PAGES_BRANCH = "gh-pages";
export const DEFAULT_PAGES_DIR = "benchgate";
export { HISTORY_FILE };
export const DEFAULT_MAX_ATTEMPTS = 8;
/** The pause before attempt n+1 is uniform in [0, min(cap, base · 2^(n−1))] ("full jitter"). */
const DEFAULT_BACKOFF = Object.freeze({ baseMs: 250, capMs: 15_000 });

interface PagesTarget {
  /** A git URL or a local path (absolute: git runs in a scratch directory). */
  readonly remote: string;
  /** Default gh-pages. */
  readonly branch?: string;
  /** Directory on the branch for history.json and the extra files; default benchgate, "." the root. */
  readonly dir?: string;
  /** A token for an https remote (GitHub: contents: write), sent in an HTTP header. */
  readonly token?: string;
}

interface PagesUpdate {
  /** The new history from the one on the branch (undefined: none yet). Pure; may run many times. */
  readonly transform: (current: BenchHistory | undefined) => BenchHistory;
  /** More files under the directory, by relative path; called once per attempt. */
  readonly extraFiles?: (history: BenchHistory) => PagesFiles;
  /** The gh-pages commit's message, or how to say it of the new history (after `transform`). */
  readonly message: string | ((history: BenchHistory) => string);
}

export interface PagesWriterDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly writer: FileWriter;
  readonly env: Readonly<Record<string, string>>;
  /** One progress line (no newline), for stderr. */
  readonly progress: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Uniform in [0, 1); Math.random when absent. */
  readonly random?: () => number;
  /** Waits, or rejects when the signal fires; a timer when absent. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface PagesWriteOptions {
  readonly maxAttempts?: number;
  readonly backoff?: { readonly baseMs: number; readonly capMs: number };
}

export interface PagesWriteResult {
  /** "unchanged": the branch already held exactly these files; nothing was pushed. */
  readonly status: "pushed" | "unchanged";
  /** The branch tip afterwards. */
  readonly commit: string;
  /** The tip the change was applied to; undefined when this write created the branch. */
  readonly parent: string | undefined;
  readonly attempts: number;
  /** The history as written (the transform of the last attempt). */
  readonly history: BenchHistory;
}

function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new InterruptedError("interrupted while waiting to retry"));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError("interrupted while waiting to retry"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Applies `update` to the history on `target`'s branch and pushes the result as one commit,
 * compare-and-swap with bounded, jittered retries. Throws InputError for a corrupt history or
 * bad extra files, ToolError when git fails or the branch kept moving, InterruptedError on abort.
 */
export async function writePagesHistory(
  target: PagesTarget,
  update: PagesUpdate,
  deps: PagesWriterDeps,
  options: PagesWriteOptions = {},
): Promise<PagesWriteResult> {
  const run = resolveRun(target, deps, options);
  const scratch = await deps.dirs.makeTemp("benchgate-pages-");
  try {
    await gitOk(scratch, ["init", "--quiet", "repo"], run.ports, "init");
    for (let attempt = 1; attempt <= run.maxAttempts; attempt++) {
      const result = await attemptWrite(run, update, scratch, attempt);
      if (result !== "moved") return result;
      if (attempt === run.maxAttempts) break;
      await pauseBeforeRetry(run, attempt);
    }
    throw new ToolError(
      `could not update ${run.branch} of ${run.remoteLabel}: it moved under us on each of ${run.maxAttempts} attempts (nothing was forced; run the job again, or give every gh-pages writer one concurrency group)`,
    );
  } finally {
    await deps.dirs.remove(scratch).catch(() => undefined);
  }
}

/** One write's settings, checked before anything touches git (bad input writes nothing). */
interface PagesRun {
  readonly remote: string;
  /** The remote with any credentials removed, for messages. */
  readonly remoteLabel: string;
  readonly branch: string;
  readonly dir: string;
  readonly historyPath: string;
  readonly maxAttempts: number;
  readonly backoff: { readonly baseMs: number; readonly capMs: number };
  readonly ports: GitPorts;
  readonly deps: PagesWriterDeps;
}

function resolveRun(
  target: PagesTarget,
  deps: PagesWriterDeps,
  options: PagesWriteOptions,
): PagesRun {
  const branch = target.branch ?? DEFAULT_PAGES_BRANCH;
  const dir = target.dir ?? DEFAULT_PAGES_DIR;
  checkRemote(target.remote);
  checkBranch(branch);
  checkPagesDir(dir);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100)
    throw new InputError(`attempts must be a whole number from 1 to 100, got ${maxAttempts}`);
  const env =
    target.token === undefined
      ? deps.env
      : { ...deps.env, ...tokenEnv(target.remote, target.token) };
  return {
    remote: target.remote,
    remoteLabel: redactRemote(target.remote),
    branch,
    dir,
    historyPath: pagesPath(dir, HISTORY_FILE),
    maxAttempts,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    ports: { proc: deps.proc, env, signal: deps.signal },
    deps,
  };
}

/**
 * One compare-and-swap round: read the tip, apply the update, commit on the tip and push.
 * "moved" when the push was refused because the branch moved since we read it.
 */
async function attemptWrite(
  run: PagesRun,
  update: PagesUpdate,
  scratch: string,
  attempt: number,
): Promise<PagesWriteResult | "moved"> {
  const { branch, ports, deps } = run;
  const repo = `${scratch}/repo`;
  const step = `attempt ${attempt}/${run.maxAttempts}`;
  deps.progress(`${step}: fetching ${branch} from ${run.remoteLabel}`);
  const tip = await fetchTip(repo, run.remote, branch, ports);
  const current = tip === undefined ? undefined : await readHistoryAt(repo, tip, run, ports);
  const { history, files } = nextFiles(run, update, current);
  if (tip !== undefined && current === undefined) await refuseForeignFiles(run, repo, tip, files);
  const tree = await buildTree(repo, scratch, tip, files, deps.writer, ports);
  if (tip !== undefined && (await treeOf(repo, tip, ports)) === tree) {
    deps.progress(
      `${step}: ${branch} already holds this history (${shortSha(tip)}); nothing to push`,
    );
    return { status: "unchanged", commit: tip, parent: tip, attempts: attempt, history };
  }
  const message = typeof update.message === "string" ? update.message : update.message(history);
  const commit = await commitTree(repo, tree, tip, message, ports);
  deps.progress(
    `${step}: pushing ${shortSha(commit)} onto ${tip === undefined ? `a new ${branch} branch` : `${branch} at ${shortSha(tip)}`}`,
  );
  // The last point where stopping leaves the remote as it was.
  if (deps.signal?.aborted === true)
    throw new InterruptedError(`interrupted before the push; ${branch} is unchanged`);
  if ((await pushCommit(repo, run.remote, commit, branch, ports)) === "pushed") {
    deps.progress(`pushed ${commit} to ${branch} of ${run.remoteLabel}`);
    return { status: "pushed", commit, parent: tip, attempts: attempt, history };
  }
  return "moved";
}

/** The transformed, validated history and every file to write, by path on the branch. */
function nextFiles(
  run: PagesRun,
  update: PagesUpdate,
  current: BenchHistory | undefined,
): { history: BenchHistory; files: Map<string, string | Uint8Array> } {
  const { historyPath } = run;
  const history = validateHistory(update.transform(current), `the new ${historyPath}`);
  const text = serializeHistory(history);
  if (text.length > MAX_BYTES.history)
    throw new InputError(
      `the new ${historyPath} would exceed ${MAX_BYTES.history} bytes; lower --max-commits`,
    );
  const files = new Map<string, string | Uint8Array>([[historyPath, text]]);
  for (const [rel, data] of checkExtraFiles(update.extraFiles?.(history) ?? new Map()))
    files.set(pagesPath(run.dir, rel), data);
  return { history, files };
}

// No history yet but files where ours would go (github-action-benchmark's data.js and page, or
// the user's own): they are someone else's, and replacing them would lose data.
async function refuseForeignFiles(
  run: PagesRun,
  repo: string,
  tip: string,
  files: ReadonlyMap<string, string | Uint8Array>,
): Promise<void> {
  const { branch, historyPath } = run;
  const ours = [...files.keys()].filter((f) => f !== historyPath);
  const foreign = [...(await lsTree(repo, tip, ours, run.ports)).keys()];
  if (foreign.length > 0)
    throw new InputError(
      `${branch} has ${foreign.join(", ")} but no ${historyPath}: benchgate would replace files it did not write. Import github-action-benchmark's history first (benchgate history import ${foreign.find((f) => f.endsWith("data.js")) ?? "data.js"} -o history.json, committed as ${historyPath}) or choose another --dir; nothing was written`,
    );
}

/** Waits a jittered, growing pause (DEFAULT_BACKOFF) so racing writers spread out. */
async function pauseBeforeRetry(run: PagesRun, attempt: number): Promise<void> {
  const { deps, backoff } = run;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? timerSleep;
  const pause = Math.round(random() * Math.min(backoff.capMs, backoff.baseMs * 2 ** (attempt - 1)));
  deps.progress(
    `attempt ${attempt}/${run.maxAttempts}: ${run.branch} moved since we read it (not a fast-forward); retrying in ${(pause / 1000).toFixed(1)} s`,
  );
  await sleep(pause, deps.signal);
}
