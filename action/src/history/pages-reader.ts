// Reading history.json from the gh-pages branch (docs/history.md, "Compare-and-swap", step 2):
// the blob at a fetched tip, size-capped, parsed strictly and validated. A file that cannot be
// read is an InputError naming branch:path and the JSON path, never an empty history (H4).
// `readPagesHistory` does the read alone, in its own scratch repository, for commands that only
// look (`history supersede --list`); the writer reads through `readHistoryAt` on every attempt.
import { InputError } from "../errors.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { MAX_BYTES } from "../ingest/read-document.ts";
import { parseJsonText } from "../schemas/parse-json.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import {
  checkBranch,
  checkRemote,
  fetchTip,
  gitOk,
  lsTree,
  readBlob,
  tokenEnv,
  type GitPorts,
} from "./pages-git.ts";
import { HISTORY_FILE, checkPagesDir, pagesPath } from "./pages-paths.ts";

/** The history.json at `tip`, or undefined when the branch has none; InputError when corrupt. */
export async function readHistoryAt(
  repo: string,
  tip: string,
  where: { branch: string; dir: string },
  ports: GitPorts,
): Promise<BenchHistory | undefined> {
  const file = pagesPath(where.dir, HISTORY_FILE);
  const source = `${where.branch}:${file}`;
  const keep =
    " (benchgate never replaces a history it cannot read: fix or restore the file on the branch; nothing was written)";
  const entries = await lsTree(repo, tip, where.dir === "." ? [file] : [where.dir, file], ports);
  const dirEntry = entries.get(where.dir);
  if (where.dir !== "." && dirEntry !== undefined && dirEntry.type !== "tree")
    throw new InputError(`is not a directory${keep}`, { source: `${where.branch}:${where.dir}` });
  const entry = entries.get(file);
  if (entry === undefined) return undefined;
  if (entry.type !== "blob" || (entry.mode !== "100644" && entry.mode !== "100755"))
    throw new InputError(`is not a regular file (a symlink, directory or submodule)${keep}`, {
      source,
    });
  const size = entry.size ?? 0;
  if (size > MAX_BYTES.history)
    throw new InputError(`is too large (${size} bytes, limit ${MAX_BYTES.history})${keep}`, {
      source,
    });
  const text = await readBlob(repo, entry.sha, size, ports);
  if (text === undefined) throw new InputError(`could not be read in full${keep}`, { source });
  try {
    return validateHistory(
      parseJsonText(text, source, { maxChars: MAX_BYTES.history, maxDepth: 64 }),
      source,
    );
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const at = error.jsonPath === undefined ? {} : { jsonPath: error.jsonPath };
    throw new InputError(`${error.message}${keep}`, { source, ...at }, { cause: error });
  }
}

interface PagesReadTarget {
  /** A git URL or an absolute local path. */
  readonly remote: string;
  readonly branch: string;
  /** Directory on the branch; "." for the root. */
  readonly dir: string;
  /** A token for an https remote, sent in an HTTP header. */
  readonly token?: string;
}

interface PagesReaderDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/**
 * The history on the branch's tip: undefined when there is no branch or no history.json on it.
 * Writes nothing anywhere but a scratch directory, which is removed.
 */
export async function readPagesHistory(
  target: PagesReadTarget,
  deps: PagesReaderDeps,
): Promise<BenchHistory | undefined> {
  const { remote, branch, dir, token } = target;
  checkRemote(remote);
  checkBranch(branch);
  checkPagesDir(dir);
  const env = token === undefined ? deps.env : { ...deps.env, ...tokenEnv(remote, token) };
  const ports: GitPorts = { proc: deps.proc, env, signal: deps.signal };
  const scratch = await deps.dirs.makeTemp("benchgate-pages-");
  try {
    await gitOk(scratch, ["init", "--quiet", "repo"], ports, "init");
    const repo = `${scratch}/repo`;
    const tip = await fetchTip(repo, remote, branch, ports);
    return tip === undefined ? undefined : await readHistoryAt(repo, tip, { branch, dir }, ports);
  } finally {
    await deps.dirs.remove(scratch).catch(() => undefined);
  }
}
