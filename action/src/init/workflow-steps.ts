// The steps the gate workflows are made of, as YAML lines: the checkouts, the build of a local
// action from a trusted commit, the gate itself and the artifact upload. Pure.
import { pinnedUses } from "./pinned-actions.ts";
import { HARNESS_DIR, isLocalActionRef, type WorkflowOptions } from "./workflow-options.ts";
import { yamlScalar } from "./yaml-scalar.ts";

export type Lines = readonly string[];

export function indent(spaces: number, lines: Lines): string[] {
  return lines.map((line) => (line === "" ? line : " ".repeat(spaces) + line));
}

export function step(fields: Lines): string[] {
  return fields.map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`));
}

export function checkout(name: string, options: Lines): string[] {
  return step([
    `name: ${name}`,
    `uses: ${pinnedUses("checkout")}`,
    "with:",
    ...indent(2, options),
    // The job's token stays out of .git/config, where the benchmarked code could read it.
    "  persist-credentials: false",
  ]);
}

/** Checkout of the code under test: full history, since the gate makes worktrees of two commits. */
export function subjectCheckout(name: string, ref: string | undefined): string[] {
  return checkout(name, [
    ...(ref === undefined ? [] : [`ref: ${ref}`]),
    "fetch-depth: 0 # the base and the head commit, each checked out in a worktree",
  ]);
}

/** For `./path` refs: benchgate's own source from a trusted commit, built (dist/ is not committed). */
export function harnessSteps(trustedRef: string, why: string): string[] {
  return [
    ...checkout(`Check out benchgate itself (${why})`, [
      `ref: ${trustedRef}`,
      `path: ${HARNESS_DIR}`,
    ]),
    ...step([
      "name: Set up Node",
      `uses: ${pinnedUses("setupNode")}`,
      "with:",
      "  node-version: 24",
      "  package-manager-cache: false # no cache shared between trusted and untrusted runs",
    ]),
    ...step([
      "name: Build the action bundle",
      `working-directory: ${HARNESS_DIR}`,
      "run: npm ci --no-audit --no-fund && npm run build",
    ]),
  ];
}

export function actionUses(options: WorkflowOptions): string {
  const ref = options.actionRef;
  // Not GitHub's `$/path`, which zizmor suggests: that is the workflow's own commit, for a pull
  // request the change itself, and it would still lack the bundle built above.
  return isLocalActionRef(ref)
    ? `./${HARNESS_DIR}/${ref.slice(2)} # zizmor: ignore[self-repository]`
    : ref;
}

/** Every value reaches the action as an input, never through a shell (security reference §1.3). */
export function gateSteps(options: WorkflowOptions, inputs: Lines): string[] {
  return [
    ...step([
      "name: Benchmark base and head, decide, report",
      `uses: ${actionUses(options)}`,
      "with:",
      "  mode: gate",
      "  out: ${{ runner.temp }}/benchgate",
      ...indent(2, inputs),
    ]),
    ...step([
      "name: Keep the report, summaries and logs",
      "if: always()",
      `uses: ${pinnedUses("uploadArtifact")}`,
      "with:",
      "  name: benchgate-${{ github.run_attempt }}",
      "  path: ${{ runner.temp }}/benchgate",
      "  if-no-files-found: ignore",
      "  retention-days: 14",
    ]),
  ];
}

export function runsOn(options: WorkflowOptions): string {
  return `[${options.runnerLabels.map(yamlScalar).join(", ")}]`;
}
