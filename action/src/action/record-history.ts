// The report job on a push to the default branch also records the verdict's commit in the
// history on gh-pages (docs/history.md), after the verdict is out: a history that cannot be
// written (a corrupt history.json, a branch that kept moving) fails the step, never the verdict.
// `benchgate history append` does the same through the same function: the same guard (pushes to
// the default branch only), the same compare-and-swap push. Here the request comes from the
// action's inputs and the event main.ts already read.
import path from "node:path";
import { describeFailure } from "../errors.ts";
import { appendHistory, type AppendRequest } from "../gate/append-history.ts";
import type { GateTarget } from "../gate/publish.ts";
import type { GateEvent } from "../github/event.ts";
import { headCommitOf, writeContextOf } from "../history/github-context.ts";
import { DEFAULT_MAX_ATTEMPTS } from "../history/pages-writer.ts";
import type { Machine } from "../ports/machine.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { ActionConfig } from "./action-config.ts";

type HistoryInputs = NonNullable<ActionConfig["history"]>;

/** The request from the action's inputs; the guard reads the runner's variables and the event. */
async function historyRequest(
  config: ActionConfig,
  history: HistoryInputs,
  event: GateEvent,
  target: GateTarget,
  reportFile: string,
  machine: Machine,
): Promise<AppendRequest> {
  const { github } = config;
  const workspace = path.resolve(github.workspace);
  const repository = `${github.owner}/${github.repo}`;
  const remote = history.remote ?? `${github.serverUrl}/${repository}.git`;
  const configFile = path.resolve(workspace, config.configPath);
  const ref = machine.env["GITHUB_REF"];
  return {
    reportFile,
    remote,
    branch: history.branch,
    dir: history.dir,
    maxCommits: history.maxCommits,
    attempts: DEFAULT_MAX_ATTEMPTS,
    // Only an https remote takes a token; a local or ssh one has its own access.
    token: remote.startsWith("https://") ? config.token : undefined,
    configFile: (await machine.reader.kindOf(configFile)) === "file" ? configFile : undefined,
    context: writeContextOf(
      {
        eventName: github.eventName,
        ref: ref === "" ? undefined : ref,
        repository,
        payload: event.facts ?? { fork: false },
      },
      {},
    ),
    commit: { sha: target.headSha },
    pushed: headCommitOf(event.facts?.headCommit, target.headSha),
    repo: workspace,
    repositoryUrl: github.serverUrl.startsWith("https://")
      ? `${github.serverUrl}/${repository}`
      : undefined,
  };
}

/** Returns false, after failing the step, when the history could not be written. */
export async function recordHistory(
  config: ActionConfig,
  target: GateTarget,
  reportFile: string,
  machine: Machine,
  io: StepIO,
  event: GateEvent,
): Promise<boolean> {
  const history = config.history;
  if (history === undefined) return true;
  // Progress and the result line go to the step's log, like everything else the action says.
  const logged: Machine = {
    ...machine,
    out: (text) => io.info(text.trimEnd()),
    err: (text) => io.info(text.trimEnd()),
  };
  try {
    const request = await historyRequest(config, history, event, target, reportFile, machine);
    await appendHistory(request, logged);
    return true;
  } catch (error) {
    io.fail(
      `benchgate: the verdict is out, but the history was not written: ${describeFailure(error)}`,
    );
    return false;
  }
}
