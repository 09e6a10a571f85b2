// The action's composition root and its one catch: the only place that builds the GitHub client
// from the ports it is given, and the only place an exception becomes a failed step. Inputs are
// read once, the event parsed once, then one mode runs: authorize, measure, report or gate. A
// regression is a verdict (the step fails after the comment, summary and check are out); only a
// crash is an exception.
import type { Machine } from "../ports/machine.ts";
import { describeFailure } from "../errors.ts";
import type { GitHubPort } from "../ports/github.ts";
import type { FileReader } from "../ports/files.ts";
import { readActionConfig, type ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import { parseEvent } from "../github/event.ts";
import { runAuthorizeMode } from "./authorize-mode.ts";
import { runGateMode } from "./gate-mode.ts";
import { runMeasureMode } from "./measure-mode.ts";
import { runReportMode } from "./report-mode.ts";
import { parseJsonText } from "../schemas/parse-json.ts";

/** GitHub's own payloads are far smaller; a larger file is not one. */
const MAX_EVENT_BYTES = 25 * 1024 * 1024;

interface ActionDeps {
  readonly io: StepIO;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly reader: FileReader;
  readonly github: (config: ActionConfig) => GitHubPort;
  readonly machine: Machine;
}

export async function runAction(deps: ActionDeps): Promise<void> {
  const { io } = deps;
  try {
    const config = readActionConfig(io.input, deps.env);
    const text = await deps.reader.readText(config.github.eventPath, MAX_EVENT_BYTES);
    const event = parseEvent(
      config.github.eventName,
      parseJsonText(text, "GITHUB_EVENT_PATH", { maxChars: MAX_EVENT_BYTES, maxDepth: 64 }),
    );
    if (config.mode === "measure") {
      // No GitHub client is even built: this job runs the pull request's code.
      await runMeasureMode(config, event, io, deps.machine);
      return;
    }
    const github = deps.github(config);
    if (config.mode === "authorize") {
      await runAuthorizeMode(config, event, github, io);
      return;
    }
    const outcome =
      config.mode === "report"
        ? await runReportMode(config, event, github, io, deps.machine)
        : await runGateMode(config, event, github, io, deps.machine);
    if (outcome.failed)
      io.fail(
        `benchgate: the gate failed (${outcome.verdict}); see the PR comment or the job summary`,
      );
  } catch (error) {
    const message = describeFailure(error);
    io.setOutput("verdict", "error");
    io.fail(`benchgate: ${message}`);
  }
}
