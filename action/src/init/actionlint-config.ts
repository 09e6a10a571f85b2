// The `.github/actionlint.yaml` that `benchgate init` writes beside the workflows: actionlint
// knows GitHub's own runner labels and reports every other label as unknown, so without this
// file the self-hosted runner's custom labels fail a user's lint of the workflows as written.
// Pure.
import { runnerKind, type WorkflowOptions } from "./workflow-options.ts";
import { yamlScalar } from "./yaml-scalar.ts";

/** Labels actionlint knows for a self-hosted runner without being told. */
const KNOWN_SELF_HOSTED_LABELS = new Set([
  "self-hosted",
  "linux",
  "macos",
  "windows",
  "x64",
  "arm",
  "arm64",
]);

/** The runner labels actionlint must be told about: none on a GitHub-hosted runner. */
export function customRunnerLabels(options: WorkflowOptions): string[] {
  if (runnerKind(options) === "github-hosted") return [];
  return options.runnerLabels.filter((label) => !KNOWN_SELF_HOSTED_LABELS.has(label));
}

/** The config text, or undefined when every label is one actionlint knows. */
export function actionlintConfig(options: WorkflowOptions): string | undefined {
  const labels = customRunnerLabels(options);
  if (labels.length === 0) return undefined;
  return [
    "# actionlint's config (written by `benchgate init`): the self-hosted benchmark runner's",
    "# custom labels, which actionlint would otherwise report as unknown.",
    "self-hosted-runner:",
    `  labels: [${labels.map(yamlScalar).join(", ")}]`,
    "",
  ].join("\n");
}
