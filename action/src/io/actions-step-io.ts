// StepIO on @actions/core: inputs from INPUT_*, outputs to GITHUB_OUTPUT, the job summary to
// GITHUB_STEP_SUMMARY (capped below GitHub's 1 MiB), annotations as workflow commands.
import * as core from "@actions/core";
import type { StepIO } from "../ports/step-io.ts";
import { defuseWorkflowCommands } from "../render/workflow-commands.ts";

const MAX_SUMMARY_CHARS = 1000 * 1000;

export const actionsStepIO: StepIO = {
  input: (name) => core.getInput(name),
  setOutput: (name, value) => core.setOutput(name, value),
  summary: async (markdown) => {
    if (process.env["GITHUB_STEP_SUMMARY"] === undefined) return;
    await core.summary.addRaw(markdown.slice(0, MAX_SUMMARY_CHARS), true).write();
  },
  annotate: (title, message) => core.error(message, { title }),
  // info prints its text as it is, so a line of it could be a workflow command
  // (docs/threat-model.md, O6). warning, annotate and fail are commands themselves, whose text
  // @actions/core escapes onto one line.
  info: (text) => core.info(defuseWorkflowCommands(text)),
  warning: (text) => core.warning(text),
  fail: (message) => core.setFailed(message),
};
