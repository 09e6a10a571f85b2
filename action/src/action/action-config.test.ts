import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { readActionConfig } from "./action-config.ts";
import { parseEvent } from "../github/event.ts";
import { gateTarget } from "./gate-target.ts";

const ENV = {
  GITHUB_REPOSITORY: "octo/repo",
  GITHUB_EVENT_NAME: "pull_request",
  GITHUB_EVENT_PATH: "/tmp/event.json",
};
const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? "";
const A = "a".repeat(40);
const B = "b".repeat(40);

describe("readActionConfig", () => {
  it("defaults: gate mode, benchgate.yml, the github-actions[bot] id", () => {
    const config = readActionConfig(reader({ "github-token": "t" }), ENV);
    expect(config).toMatchObject({
      mode: "gate",
      configPath: "benchgate.yml",
      botUserId: 41898282,
      out: ".benchgate/run",
    });
    expect(config.github).toMatchObject({
      owner: "octo",
      repo: "repo",
      apiUrl: "https://api.github.com",
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ mode: "deploy" }, "input 'mode'"],
    [{ "head-sha": "abc123" }, "input 'head-sha'"],
    [{ "head-sha": "A".repeat(40) }, "input 'head-sha'"],
    [{ rounds: "0" }, "input 'rounds'"],
    [{ rounds: "3; rm" }, "input 'rounds'"],
    [{ "pr-number": "-1" }, "input 'pr-number'"],
    [{ filter: "a b" }, "input 'filter'"],
    [{ filter: "--bench" }, "input 'filter'"],
    [{ config: "../secrets.yml" }, "input 'config'"],
    [{ "fail-on-inconclusive": "yes" }, "input 'fail-on-inconclusive'"],
    [{ mode: "report", "measure-result": "success" }, "input 'results'"],
    [{ mode: "report", results: "r" }, "input 'measure-result'"],
    [{ mode: "report", results: "r", "measure-result": "passed" }, "input 'measure-result'"],
  ])("rejects %j naming the input", (inputs, named) => {
    expect(() => readActionConfig(reader({ "github-token": "t", ...inputs }), ENV)).toThrow(named);
  });

  it("measure mode holds no token, even when one is given; report mode keeps its inputs", () => {
    expect(readActionConfig(reader({ mode: "measure", "github-token": "t" }), ENV).token).toBe("");
    expect(readActionConfig(reader({ mode: "measure" }), ENV).mode).toBe("measure");
    expect(
      readActionConfig(
        reader({ mode: "report", "github-token": "t", results: "r", "measure-result": "failure" }),
        ENV,
      ),
    ).toMatchObject({ mode: "report", results: "r", measureResult: "failure" });
  });

  it("needs a token and the Actions environment", () => {
    expect(() => readActionConfig(reader({}), ENV)).toThrow(InputError);
    expect(() =>
      readActionConfig(reader({ "github-token": "t" }), { ...ENV, GITHUB_EVENT_PATH: "" }),
    ).toThrow("GITHUB_EVENT_PATH");
  });
});

describe("history-branch", () => {
  const inputs = { "github-token": "t", "history-branch": "gh-pages" };
  const report = { ...inputs, mode: "report", results: "r", "measure-result": "success" };

  it("a pull request's report may name it too (it is then only read)", () => {
    for (const event of ["pull_request", "issue_comment", "push"])
      expect(
        readActionConfig(reader(report), { ...ENV, GITHUB_EVENT_NAME: event }).history,
        event,
      ).toEqual({ branch: "gh-pages", dir: "benchgate" });
  });

  it.each(["gate", "measure"])("belongs to mode: report, not %s", (mode) => {
    expect(() => readActionConfig(reader({ ...inputs, mode }), ENV)).toThrow(
      "input 'history-branch' belongs to mode: report (written on pushes, read on pull requests)",
    );
  });
});

describe("gateTarget", () => {
  const config = readActionConfig(reader({ "github-token": "t" }), ENV);
  const pr = (headRepo: string) =>
    parseEvent("pull_request", {
      pull_request: {
        number: 3,
        base: { sha: A, repo: { full_name: "octo/repo" } },
        head: { sha: B, repo: { full_name: headRepo } },
      },
    });

  it("a same-repository pull request: its base and head", () => {
    expect(gateTarget(config, pr("octo/repo"))).toEqual({ baseSha: A, headSha: B, prNumber: 3 });
  });

  it("R1: a fork's pull_request never reaches the runner", () => {
    expect(() => gateTarget(config, pr("evil/repo"))).toThrow(/fork/);
  });

  it("a pinned /rebench run uses the inputs, not the event", () => {
    const pinned = readActionConfig(
      reader({ "github-token": "t", "base-sha": A, "head-sha": B, "pr-number": "9" }),
      {
        ...ENV,
        GITHUB_EVENT_NAME: "issue_comment",
      },
    );
    expect(gateTarget(pinned, { kind: "other", name: "issue_comment" })).toEqual({
      baseSha: A,
      headSha: B,
      prNumber: 9,
    });
  });

  it("a push compares before with after, and refuses a new branch", () => {
    expect(gateTarget(config, parseEvent("push", { before: A, after: B }))).toEqual({
      baseSha: A,
      headSha: B,
    });
    expect(() =>
      gateTarget(config, parseEvent("push", { before: "0".repeat(40), after: B })),
    ).toThrow(/no previous commit/);
  });
});

describe("half a pinned target", () => {
  it("base-sha without head-sha is an error, not a silent fall-back to the event", () => {
    const half = readActionConfig(reader({ "github-token": "t", "base-sha": A }), ENV);
    expect(() => gateTarget(half, { kind: "other", name: "issue_comment" })).toThrow("go together");
  });
});
