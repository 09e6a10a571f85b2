// The report job on a push to the default branch also records the verdict's commit in the
// history on gh-pages (SPEC §3.8, docs/history.md), after the verdict is out: a history that
// cannot be written (a corrupt history.json, a branch that kept moving) fails the step, never
// the verdict. The CLI's `history append` does the work: the same guard (pushes to the default
// branch only), the same compare-and-swap push. The token reaches git only through the
// environment, under a name of our own.
import path from "node:path";
import { historyCommand } from "../cli/commands/history.ts";
import type { Machine } from "../ports/machine.ts";
import { describeFailure } from "../errors.ts";
import type { ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { GateTarget } from "../gate/publish.ts";

const TOKEN_VARIABLE = "BENCHGATE_PAGES_TOKEN";

/** Returns false, after failing the step, when the history could not be written. */
export async function appendHistory(
  config: ActionConfig,
  target: GateTarget,
  reportFile: string,
  machine: Machine,
  io: StepIO,
): Promise<boolean> {
  const history = config.history;
  if (history === undefined) return true;
  const workspace = path.resolve(config.github.workspace);
  const remote =
    history.remote ?? `${config.github.serverUrl}/${config.github.owner}/${config.github.repo}.git`;
  const configFile = path.resolve(workspace, config.configPath);
  const argv = [
    "append",
    "--report",
    reportFile,
    "--remote",
    remote,
    "--branch",
    history.branch,
    "--dir",
    history.dir,
    "--sha",
    target.headSha,
    "--repo",
    workspace,
    ...(history.maxCommits === undefined ? [] : ["--max-commits", String(history.maxCommits)]),
    ...(remote.startsWith("https://") ? ["--token-env", TOKEN_VARIABLE] : []),
    ...((await machine.reader.kindOf(configFile)) === "file" ? ["--config", configFile] : []),
  ];
  const deps: Machine = {
    ...machine,
    env: { ...machine.env, [TOKEN_VARIABLE]: config.token },
    out: (text) => io.info(text.trimEnd()),
    err: (text) => io.info(text.trimEnd()),
  };
  try {
    const code = await historyCommand(argv, deps);
    if (code === 0) return true;
    io.fail(`benchgate: history append exited with ${code}`);
  } catch (error) {
    io.fail(
      `benchgate: the verdict is out, but the history was not written: ${describeFailure(error)}`,
    );
  }
  return false;
}
