// One change to the history on the gh-pages branch, with the page and data.js rebuilt in the
// same commit (docs/history.md, "Compare-and-swap"): the remote resolved against the working
// directory, the token kept out of the URL, Ctrl-C wired to the writer, and the warning when
// data.js had to be left out. Shared by `history append` (a record) and `history supersede`
// (a superseded baseline), so both write through the same scratch repository and CAS loop.
import path from "node:path";
import { MAX_EXTRA_FILE_BYTES } from "../history/pages-paths.ts";
import { redactRemote } from "../history/pages-git.ts";
import { HISTORY_FILE, writePagesHistory, type PagesWriteResult } from "../history/pages-writer.ts";
import type { Machine } from "../ports/machine.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { loadSiteAssets } from "../site/site-assets.ts";
import { historyPages, GAB_DATA_FILE } from "./history-pages.ts";

export interface HistoryPagesTarget {
  /** The repository holding the pages branch: a git URL, or a path (against machine.cwd). */
  readonly remote: string;
  readonly branch: string;
  /** The directory on the branch ("." for its root). */
  readonly dir: string;
  /** Push attempts before giving up. */
  readonly attempts: number;
  /** The token for an https remote: sent to git in an HTTP header, never in the URL. */
  readonly token?: string | undefined;
  /** The page's title. */
  readonly title?: string | undefined;
  /** https://server/owner/name, which data.js names as its repository. */
  readonly repositoryUrl?: string | undefined;
}

interface HistoryPagesChange {
  /** The new history from the one on the branch (undefined: none yet). Pure; may run many times. */
  readonly transform: (current: BenchHistory | undefined) => BenchHistory;
  /** The gh-pages commit's message, or how to say it once `transform` ran (clipped to 200). */
  readonly message: string | ((history: BenchHistory) => string);
}

interface HistoryPagesWrite {
  readonly result: PagesWriteResult;
  /** "REMOTE BRANCH:DIR/history.json", credentials removed, for the result line. */
  readonly where: string;
}

function isUrl(remote: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/]+@[^/]+:/.test(remote);
}

/** A git URL as it is; a path against the working directory (git runs in a scratch directory). */
export function resolveRemote(remote: string, cwd: string): string {
  return isUrl(remote) ? remote : path.resolve(cwd, remote);
}

/**
 * Applies `change` to the history on the branch and pushes it with the page's files, compare-
 * and-swap. Progress and the data.js warning go to machine.err. Throws as writePagesHistory.
 */
export async function writeHistoryPages(
  target: HistoryPagesTarget,
  change: HistoryPagesChange,
  machine: Machine,
): Promise<HistoryPagesWrite> {
  const remote = resolveRemote(target.remote, machine.cwd);
  const pages = historyPages(await loadSiteAssets(), {
    title: target.title,
    repositoryUrl: target.repositoryUrl,
  });
  const { branch, dir, token } = target;
  const interrupts = machine.interrupts();
  try {
    const result = await writePagesHistory(
      { remote, branch, dir, ...(token === undefined ? {} : { token }) },
      {
        transform: change.transform,
        extraFiles: pages.files,
        message: (history) =>
          (typeof change.message === "string" ? change.message : change.message(history)).slice(
            0,
            200,
          ),
      },
      {
        proc: machine.proc,
        dirs: machine.dirs,
        writer: machine.writer,
        env: machine.env,
        progress: (line) => machine.err(`benchgate: history: ${line}\n`),
        signal: interrupts.signal,
      },
      { maxAttempts: target.attempts },
    );
    const skipped = pages.skippedBytes();
    if (skipped !== undefined)
      machine.err(
        `benchgate: warning: ${GAB_DATA_FILE} would be ${skipped} bytes (over ${MAX_EXTRA_FILE_BYTES}); not written this time (--max-commits keeps the history smaller); history.json and the page were\n`,
      );
    const where = `${redactRemote(remote)} ${branch}:${dir === "." ? "" : `${dir}/`}${HISTORY_FILE}`;
    return { result, where };
  } finally {
    interrupts.dispose();
  }
}
