import { describe, expect, it } from "vitest";
import { format } from "prettier";
import { parse } from "yaml";
import { InputError } from "../errors.ts";
import { PINNED_ACTIONS, pinnedUses } from "./pinned-actions.ts";
import {
  DEFAULT_RUNNER_LABELS,
  HARNESS_DIR,
  WORKFLOW_PATHS,
  isPinnedActionRef,
  renderWorkflows,
  type WorkflowOptions,
} from "./workflows.ts";

const PINNED = `owner/repo/action@${"a".repeat(40)}`;
const options = (overrides: Partial<WorkflowOptions> = {}): WorkflowOptions => ({
  actionRef: PINNED,
  runnerLabels: DEFAULT_RUNNER_LABELS,
  defaultBranch: "main",
  ...overrides,
});

type Json = Record<string, unknown>;
interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Json;
}
interface Job {
  readonly "runs-on": unknown;
  readonly steps: readonly Step[];
  readonly outputs?: Json;
}

function jobs(text: string): Record<string, Job> {
  return (parse(text) as { jobs: Record<string, Job> }).jobs;
}

describe("renderWorkflows", () => {
  it("writes the three workflows, each parsing as YAML", () => {
    const files = renderWorkflows(options());
    expect([...files.keys()]).toEqual([
      WORKFLOW_PATHS.pr,
      WORKFLOW_PATHS.command,
      WORKFLOW_PATHS.main,
    ]);
    for (const text of files.values()) expect(() => parse(text) as unknown).not.toThrow();
  });

  it("uses a remote action directly, with no build steps", () => {
    for (const text of renderWorkflows(options()).values()) {
      const steps = Object.values(jobs(text)).flatMap((job) => job.steps);
      expect(steps.filter((s) => s.uses === PINNED).length).toBeGreaterThan(0);
      expect(steps.some((s) => s.run !== undefined)).toBe(false);
      expect(text).not.toContain(HARNESS_DIR);
    }
  });

  it("builds a local action from a trusted commit beside the subject, never the subject's copy", () => {
    const trusted = {
      [WORKFLOW_PATHS.pr]: "${{ github.event.pull_request.base.sha }}",
      [WORKFLOW_PATHS.command]: "${{ github.sha }}",
      [WORKFLOW_PATHS.main]: "${{ github.sha }}",
    };
    for (const [file, text] of renderWorkflows(options({ actionRef: "./action" }))) {
      for (const job of Object.values(jobs(text))) {
        const steps = job.steps;
        const gate = steps.findIndex((s) => s.uses?.startsWith("./") === true);
        expect(steps[gate]?.uses).toBe(`./${HARNESS_DIR}/action`);
        const harness = steps.findIndex((s) => s.with?.["path"] === HARNESS_DIR);
        expect(steps[harness]?.with?.["ref"]).toBe(trusted[file as keyof typeof trusted]);
        const build = steps.findIndex((s) => s.run?.includes("npm run build") === true);
        expect(harness).toBeLessThan(build);
        expect(build).toBeLessThan(gate);
        // The subject's checkout cleans the workspace, so it must come before the harness.
        const subject = steps.findIndex((s) => s.with?.["fetch-depth"] === 0);
        if (subject !== -1) expect(subject).toBeLessThan(harness);
      }
    }
  });

  it("passes the pinned commit and the command's options to measure, and the target to report", () => {
    const command = jobs(renderWorkflows(options()).get(WORKFLOW_PATHS.command) ?? "");
    const measure = command["measure"];
    expect(measure?.steps[0]?.with?.["ref"]).toBe("${{ needs.authorize.outputs.head-sha }}");
    expect(measure?.steps.find((s) => s.uses === PINNED)?.with).toEqual({
      mode: "measure",
      out: "${{ runner.temp }}/benchgate",
      "base-sha": "${{ needs.authorize.outputs.base-sha }}",
      "head-sha": "${{ needs.authorize.outputs.head-sha }}",
      rounds: "${{ needs.authorize.outputs.rounds }}",
      filter: "${{ needs.authorize.outputs.filter }}",
    });
    const report = command["report"];
    // The report job checks out the base commit (for its config), never the pinned head.
    expect(report?.steps[0]?.with?.["ref"]).toBe("${{ needs.authorize.outputs.base-sha }}");
    expect(report?.steps.find((s) => s.uses === PINNED)?.with).toEqual({
      mode: "report",
      results: "${{ runner.temp }}/measured",
      "measure-result": "${{ needs.measure.result }}",
      out: "${{ runner.temp }}/benchgate",
      "base-sha": "${{ needs.authorize.outputs.base-sha }}",
      "head-sha": "${{ needs.authorize.outputs.head-sha }}",
      "pr-number": "${{ needs.authorize.outputs.pr-number }}",
      "command-comment-id": "${{ needs.authorize.outputs.comment-id }}",
      rounds: "${{ needs.authorize.outputs.rounds }}",
      filter: "${{ needs.authorize.outputs.filter }}",
      "check-id": "${{ needs.authorize.outputs.check-id }}",
    });
    expect(Object.keys(command["authorize"]?.outputs ?? {}).sort()).toEqual(
      [
        "base-sha",
        "check-id",
        "comment-id",
        "filter",
        "head-sha",
        "pr-number",
        "rounds",
        "run",
      ].sort(),
    );
  });

  it("writes the runner labels and default branch as YAML that reads back as strings", () => {
    const files = renderWorkflows(
      options({ runnerLabels: ["self-hosted", "true", "2025", "bench.box"], defaultBranch: "on" }),
    );
    const main = parse(files.get(WORKFLOW_PATHS.main) ?? "") as {
      on: { push: { branches: unknown[] } };
      jobs: { measure: Job };
    };
    expect(main.on.push.branches).toEqual(["on"]);
    expect(main.jobs.measure["runs-on"]).toEqual(["self-hosted", "true", "2025", "bench.box"]);
  });

  it("refuses values that could change the workflow's meaning", () => {
    const bad: Partial<WorkflowOptions>[] = [
      { actionRef: "owner/repo@v1 # x" },
      { actionRef: "owner/repo@${{ github.head_ref }}" },
      { actionRef: 'owner/repo@"v1"' },
      { actionRef: "owner/repo" },
      { actionRef: "docker://alpine:3" },
      { actionRef: "owner/../repo@v1" },
      { actionRef: "./../outside" },
      { actionRef: "./a\nrun: x" },
      { runnerLabels: [] },
      { runnerLabels: ["self-hosted", "has space"] },
      { runnerLabels: ["[x]"] },
      { defaultBranch: "main\n  - dev" },
      { defaultBranch: "a..b" },
      { defaultBranch: "-x" },
      { defaultBranch: "release/" },
    ];
    for (const b of bad)
      expect(() => renderWorkflows(options(b)), JSON.stringify(b)).toThrow(InputError);
  });

  it("accepts usual refs and says which are pinned to a commit", () => {
    for (const ref of ["owner/repo@v1", "owner/repo/action@v0.1.2", PINNED, "./action", "./a/b"])
      expect(() => renderWorkflows(options({ actionRef: ref }))).not.toThrow();
    expect(isPinnedActionRef(PINNED)).toBe(true);
    expect(isPinnedActionRef("./action")).toBe(true);
    expect(isPinnedActionRef("owner/repo@v1")).toBe(false);
    expect(isPinnedActionRef(`owner/repo@${"A".repeat(40)}`)).toBe(false);
  });

  it("pins every third-party action it uses to a 40-hex commit with its version", () => {
    for (const pin of Object.values(PINNED_ACTIONS)) {
      expect(pin.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(pin.version).toMatch(/^v\d+\.\d+\.\d+$/);
    }
    const text = [...renderWorkflows(options({ actionRef: "./action" })).values()].join("\n");
    for (const name of ["checkout", "setupNode", "uploadArtifact"] as const)
      expect(text).toContain(`uses: ${pinnedUses(name)}`);
  });

  it("is already formatted as prettier formats YAML, at 80 and 100 columns", async () => {
    for (const actionRef of [PINNED, "./action"]) {
      for (const text of renderWorkflows(options({ actionRef })).values()) {
        for (const printWidth of [80, 100])
          expect(await format(text, { parser: "yaml", printWidth })).toBe(text);
      }
    }
  });
});
