import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { actionlintConfig, customRunnerLabels } from "./actionlint-config.ts";
import { DEFAULT_RUNNER_LABELS, type WorkflowOptions } from "./workflows.ts";

const options = (overrides: Partial<WorkflowOptions> = {}): WorkflowOptions => ({
  actionRef: `owner/repo/action@${"a".repeat(40)}`,
  runnerLabels: DEFAULT_RUNNER_LABELS,
  defaultBranch: "main",
  ...overrides,
});

describe("actionlintConfig", () => {
  it("lists the self-hosted runner's custom labels, not the ones actionlint knows", () => {
    expect(customRunnerLabels(options())).toEqual(["benchgate"]);
    const text = actionlintConfig(
      options({ runnerLabels: ["self-hosted", "linux", "bench", "on"] }),
    );
    expect(parse(text ?? "")).toEqual({ "self-hosted-runner": { labels: ["bench", "on"] } });
  });

  it("writes nothing when no label needs it: standard labels only, or a GitHub-hosted runner", () => {
    expect(actionlintConfig(options({ runnerLabels: ["self-hosted", "linux", "x64"] }))).toBe(
      undefined,
    );
    expect(actionlintConfig(options({ runner: "github-hosted" }))).toBe(undefined);
  });
});
