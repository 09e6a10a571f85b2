// `benchgate history supersede`: marks that the benchmarks a glob matches changed their method
// at a recorded commit (docs/history.md, "Superseded baselines"). On gh-pages the mark goes
// through the same compare-and-swap write as a record (write-history-pages.ts), with the page
// rebuilt in the same commit; a local history.json is edited in place. The mark is checked
// against the history it lands in — on the branch, on every attempt — so a commit or glob that
// the history does not have writes nothing. No record is ever deleted or changed.
import { InputError } from "../errors.ts";
import {
  matchingSeries,
  supersede,
  type BreakRequest,
  type SupersedeOutcome,
} from "../history/baseline-breaks.ts";
import { checkHistoryWrite, type WriteContext } from "../history/history-guard.ts";
import { serializeHistory } from "../history/history-json.ts";
import { HISTORY_FILE, pagesPath } from "../history/pages-paths.ts";
import { readHistoryFile } from "../ingest/read-document.ts";
import type { Machine } from "../ports/machine.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { GENERATOR } from "../version.ts";
import { redactRemote, shortSha } from "../history/pages-git.ts";
import { readPagesHistory } from "../history/pages-reader.ts";
import {
  resolveRemote,
  writeHistoryPages,
  type HistoryPagesTarget,
} from "./write-history-pages.ts";

export interface SupersedeOnPagesRequest {
  readonly mark: BreakRequest;
  readonly target: HistoryPagesTarget;
  /**
   * Who is writing, when the run is a GitHub Actions job: the same guard as `history append`
   * (a pull request's workflow must not be able to hide a regression behind a mark).
   * Undefined for a person's own run, whose credentials decide whether the push is accepted.
   */
  readonly context?: WriteContext | undefined;
  /** --token-env named a variable that is unset or empty; reported after the other checks. */
  readonly unsetTokenVariable?: string | undefined;
}

interface SupersedeResult {
  /** What the mark did to the history ("unchanged": it was there already). */
  readonly status: SupersedeOutcome["status"];
  /** Whether a commit was pushed (the page may change even when the mark did not). */
  readonly pushed: boolean;
}

/** The one result line, and a warning when the mark cuts no series yet. */
function report(outcome: SupersedeOutcome, where: string, machine: Machine, tail: string): void {
  const { mark, matched, cut, at, history } = outcome;
  const glob = JSON.stringify(mark.benchmark);
  const commit = `${shortSha(mark.from)} (#${at + 1} of ${history.commits.length})`;
  const series = `${matched.length} series match, ${cut} with results on both sides`;
  const text =
    outcome.status === "added"
      ? `marked ${glob} as a new baseline from ${commit} in ${where}: ${series}${tail}`
      : outcome.status === "updated"
        ? `changed the reason of ${glob} from ${commit} in ${where}: ${series}${tail}`
        : `${glob} is already marked from ${commit} with this reason in ${where}${tail}`;
  machine.out(`${text}\n`);
  if (cut === 0)
    machine.err(
      `benchgate: warning: none of the ${matched.length} series ${glob} matches has results both before and from ${shortSha(mark.from)}: the mark separates nothing yet\n`,
    );
}

/** Adds the mark to the history on the pages branch and rebuilds the page, compare-and-swap. */
export async function supersedeOnPages(
  request: SupersedeOnPagesRequest,
  machine: Machine,
): Promise<SupersedeResult> {
  const { context, target } = request;
  if (context !== undefined) {
    const decision = checkHistoryWrite(context);
    if (!decision.allowed) throw new InputError(`refusing to write history: ${decision.reason}`);
  }
  if (request.unsetTokenVariable !== undefined)
    throw new InputError(
      `--token-env ${request.unsetTokenVariable}: that environment variable is not set`,
    );
  const now = machine.clock.date().toISOString();
  const source = `${target.branch}:${pagesPath(target.dir, HISTORY_FILE)}`;
  let outcome: SupersedeOutcome | undefined;
  const transform = (current: BenchHistory | undefined): BenchHistory => {
    if (current === undefined)
      throw new InputError(
        "there is no history here yet, so nothing to supersede (history append writes it); nothing was written",
        { source },
      );
    outcome = supersede(current, request.mark, { recordedAt: now, generator: GENERATOR, source });
    return outcome.history;
  };
  const { mark } = request;
  const { result, where } = await writeHistoryPages(
    target,
    {
      transform,
      // After the transform, which resolved the commit to its full SHA.
      message: () =>
        `benchgate: new baseline for ${mark.benchmark} from ${shortSha(outcome?.mark.from ?? mark.from)}: ${mark.reason}`,
    },
    machine,
  );
  const done = outcome as SupersedeOutcome;
  const pushed = result.status === "pushed";
  report(
    done,
    where,
    machine,
    pushed
      ? ` (${shortSha(result.commit)})`
      : done.status === "unchanged"
        ? "; nothing to push"
        : "",
  );
  return { status: done.status, pushed };
}

/** The same for a local history.json, written back in place (atomically) when it changed. */
export async function supersedeInFile(
  file: string,
  mark: BreakRequest,
  machine: Machine,
): Promise<SupersedeResult> {
  const current = await readHistoryFile(machine.reader, file);
  const outcome = supersede(current, mark, {
    recordedAt: machine.clock.date().toISOString(),
    generator: GENERATOR,
    source: file,
  });
  const changed = outcome.status !== "unchanged";
  if (changed)
    await machine.writer.writeText(
      file,
      serializeHistory(validateHistory(outcome.history, `the new ${file}`)),
    );
  report(outcome, file, machine, changed ? "" : "; file unchanged");
  return { status: outcome.status, pushed: false };
}

/** Where `--list` reads the marks: a local file, or the pages branch. */
type BreaksSource =
  | { readonly file: string }
  | { readonly target: Pick<HistoryPagesTarget, "remote" | "branch" | "dir" | "token"> };

/** Prints the marks of a history, one line each, oldest first (`supersede --list`). */
export async function listBreaks(from: BreaksSource, machine: Machine): Promise<void> {
  let history: BenchHistory | undefined;
  let where: string;
  if ("file" in from) {
    history = await readHistoryFile(machine.reader, from.file);
    where = from.file;
  } else {
    const { branch, dir, token } = from.target;
    const remote = resolveRemote(from.target.remote, machine.cwd);
    const interrupts = machine.interrupts();
    try {
      history = await readPagesHistory(
        { remote, branch, dir, ...(token === undefined ? {} : { token }) },
        { proc: machine.proc, dirs: machine.dirs, env: machine.env, signal: interrupts.signal },
      );
    } finally {
      interrupts.dispose();
    }
    where = `${redactRemote(remote)} ${branch}:${pagesPath(dir, HISTORY_FILE)}`;
  }
  const marks = history?.breaks ?? [];
  if (history === undefined) {
    machine.out(`no history in ${where}\n`);
    return;
  }
  if (marks.length === 0) {
    machine.out(`no superseded baselines in ${where}\n`);
    return;
  }
  const position = new Map(history.commits.map((c, i) => [c.sha, i]));
  const count = history.commits.length;
  machine.out(
    `${marks.length} superseded ${marks.length === 1 ? "baseline" : "baselines"} in ${where}:\n`,
  );
  for (const mark of marks) {
    const at = position.get(mark.from);
    const commit = at === undefined ? "(no longer recorded)" : `(#${at + 1} of ${count})`;
    const matched = matchingSeries(history.series, mark.benchmark).length;
    // JSON strings: a hand-edited history cannot put terminal controls on the screen.
    machine.out(
      `  ${mark.from.slice(0, 12)} ${commit}  ${JSON.stringify(mark.benchmark)} (${matched} series)  ${mark.recorded_at}  ${JSON.stringify(mark.reason)}\n`,
    );
  }
}
