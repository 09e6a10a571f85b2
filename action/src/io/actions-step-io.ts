// StepIO on @actions/core: inputs from INPUT_*, outputs to GITHUB_OUTPUT, the job summary to
// GITHUB_STEP_SUMMARY (capped below GitHub's 1 MiB), annotations as workflow commands.
import * as core from "@actions/core";
import type { StepIO } from "../ports/step-io.ts";

const MAX_SUMMARY_CHARS = 1000 * 1000;

export const actionsStepIO: StepIO = {
  input: (name) => core.getInput(name),
  setOutput: (name, value) => core.setOutput(name, value),
  summary: async (markdown) => {
    if (process.env["GITHUB_STEP_SUMMARY"] === undefined) return;
    await core.summary.addRaw(markdown.slice(0, MAX_SUMMARY_CHARS), true).write();
  },
  annotate: (title, message) => core.error(message, { title }),
  info: (text) => core.info(text),
  warning: (text) => core.warning(text),
  fail: (message) => core.setFailed(message),
};
