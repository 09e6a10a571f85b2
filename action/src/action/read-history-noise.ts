// The history noise of a pull request's report, read from the history branch (docs/action.md,
// "One run per side: noise from the history"). With one run per side a comparison cannot tell a
// change from run-to-run noise by itself; the default branch's history.json on the history
// branch, measured on the same runner, can (docs/statistics.md §14; the estimate itself is
// gate/history-noise-source.ts's). The branch is only read here, never written: a pull request's run may
// not change the history (docs/history.md).
//
// The history is an aid, not a requirement. No branch or no history.json (a repository that has
// not recorded a push yet) leaves the comparison unverified as before, with one log line. A file
// that cannot be read or fails the schema is data someone else wrote: it is warned about and left
// out, never trusted and never fatal. Only the inputs themselves (a branch, folder or remote that
// is not one) are the workflow's mistake and fail like any other bad input.
import type { HistoryNoise } from "../core/history-noise.ts";
import { describeFailure, InputError, ToolError } from "../errors.ts";
import { InterruptedError } from "../exec/run-step.ts";
import { historyNoise } from "../gate/history-noise-source.ts";
import { resolveRemote } from "../gate/write-history-pages.ts";
import type { MeasuredResults } from "../gate/measured-results.ts";
import type { GateEvent } from "../github/event.ts";
import { checkBranch, checkRemote, redactRemote } from "../history/pages-git.ts";
import { HISTORY_FILE, checkPagesDir, pagesPath } from "../history/pages-paths.ts";
import { readPagesHistory } from "../history/pages-reader.ts";
import type { Machine } from "../ports/machine.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { ActionConfig } from "./action-config.ts";

type HistoryInputs = NonNullable<ActionConfig["history"]>;

/** The events whose report reads the history instead of appending to it. */
export function readsHistory(event: GateEvent): boolean {
  return event.kind === "pull_request" || event.kind === "comment";
}

/** The input's own check, its message naming the input rather than a CLI flag. */
function checked(name: string, value: string, check: (value: string) => void): void {
  try {
    check(value);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const problem = error.message.replace(/^--dir /, "");
    throw new InputError(`input '${name}': ${problem}`, {}, { cause: error });
  }
}

/** Where the history lives, the inputs checked; the remote as append-history.ts resolves it. */
function location(config: ActionConfig, history: HistoryInputs, cwd: string) {
  const { github } = config;
  const remote = resolveRemote(
    history.remote ?? `${github.serverUrl}/${github.owner}/${github.repo}.git`,
    cwd,
  );
  checked("history-branch", history.branch, checkBranch);
  checked("history-dir", history.dir, checkPagesDir);
  checked("history-remote", remote, checkRemote);
  const where = `${redactRemote(remote)} ${history.branch}:${pagesPath(history.dir, HISTORY_FILE)}`;
  return { remote, where };
}

/** The most rounds either side has (a shard's rounds count once: they are the same runs). */
function roundsPerSide(measured: Pick<MeasuredResults, "base" | "head">): number {
  return Math.max(0, ...[...measured.base, ...measured.head].map((s) => s.summary.round));
}

/**
 * The default branch's history for a one-run comparison, or undefined (logged) when there is
 * none to use. Throws only for inputs that are not valid, or when interrupted.
 */
async function readHistory(
  config: ActionConfig,
  measured: Pick<MeasuredResults, "base" | "head">,
  machine: Machine,
  io: StepIO,
): Promise<BenchHistory | undefined> {
  const history = config.history;
  if (history === undefined) return undefined;
  const { remote, where } = location(config, history, machine.cwd);
  const rounds = roundsPerSide(measured);
  if (rounds > 1) {
    // With k ≥ 2 rounds the comparison measures its own noise; the history would be ignored.
    io.info(`benchgate: ${where} not read: ${rounds} rounds per side measure their own noise`);
    return undefined;
  }
  const interrupts = machine.interrupts();
  try {
    const found = await readPagesHistory(
      {
        remote,
        branch: history.branch,
        dir: history.dir,
        // Only an https remote takes a token; a local or ssh one has its own access.
        ...(remote.startsWith("https://") ? { token: config.token } : {}),
      },
      { proc: machine.proc, dirs: machine.dirs, env: machine.env, signal: interrupts.signal },
    );
    if (found === undefined)
      io.info(
        `benchgate: no history in ${where} yet: one run per side stays unverified (no noise estimate)`,
      );
    else
      io.info(
        `benchgate: one run per side: each benchmark's noise from ${where} (${found.commits.length} records, read only)`,
      );
    return found;
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    if (!(error instanceof InputError || error instanceof ToolError)) throw error;
    // One line: the warning annotation shows the first line only.
    const reason = describeFailure(error).replace(/\s+/g, " ").trim();
    io.warning(
      `benchgate: the history in ${where} is not used, so one run per side stays unverified: it is hostile input (whoever can push to that branch wrote it) and it could not be read or did not pass its checks, so none of it is trusted: ${reason}`,
    );
    return undefined;
  } finally {
    interrupts.dispose();
  }
}

/**
 * The noise the default branch's history gives a one-run comparison (gate/history-noise-source.ts), or
 * undefined when there is no history to use (readHistory says why in the log).
 */
export async function readHistoryNoise(
  config: ActionConfig,
  measured: Pick<MeasuredResults, "base" | "head">,
  machine: Machine,
  io: StepIO,
): Promise<HistoryNoise | undefined> {
  return historyNoise({ history: await readHistory(config, measured, machine, io) }, measured.head);
}
