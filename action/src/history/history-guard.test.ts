import { describe, expect, it } from "vitest";
import { fullRef, headCommitFrom, writeContextFrom } from "./github-context.ts";
import { checkHistoryWrite, type WriteContext } from "./history-guard.ts";

const PUSH: WriteContext = {
  eventName: "push",
  ref: "refs/heads/main",
  defaultBranch: "main",
  repository: "owner/repo",
  headRepository: "owner/repo",
  repositoryIsFork: false,
};

function reason(context: WriteContext): string {
  const decision = checkHistoryWrite(context);
  return decision.allowed ? "allowed" : decision.reason;
}

describe("checkHistoryWrite", () => {
  it("allows a push, a dispatch and a schedule on the default branch", () => {
    expect(reason(PUSH)).toBe("allowed");
    expect(reason({ ...PUSH, eventName: "workflow_dispatch" })).toBe("allowed");
    expect(reason({ ...PUSH, eventName: "schedule", headRepository: undefined })).toBe("allowed");
    expect(reason({ ...PUSH, headRepository: "OWNER/Repo" })).toBe("allowed");
  });

  it("refuses pull requests, whatever their branch is called (H1)", () => {
    for (const eventName of ["pull_request", "pull_request_target"])
      expect(reason({ ...PUSH, eventName })).toMatch(/pull request's numbers are never recorded/);
    for (const eventName of ["issue_comment", "workflow_run", "merge_group", "release", ""])
      expect(reason({ ...PUSH, eventName })).toMatch(/may not write history/);
  });

  it("refuses other refs and an unknown default branch", () => {
    expect(reason({ ...PUSH, ref: "refs/heads/feature" })).toMatch(/is not the default branch/);
    expect(reason({ ...PUSH, ref: "refs/tags/main" })).toMatch(/is not the default branch/);
    expect(reason({ ...PUSH, ref: "refs/pull/7/merge" })).toMatch(/is not the default branch/);
    expect(reason({ ...PUSH, ref: "main" })).toMatch(/is not the default branch/);
    expect(reason({ ...PUSH, defaultBranch: undefined })).toMatch(/default branch is unknown/);
  });

  it("refuses code from another repository and forks unless named", () => {
    expect(reason({ ...PUSH, headRepository: "evil/repo" })).toMatch(/comes from "evil\/repo"/);
    expect(reason({ ...PUSH, repositoryIsFork: true })).toMatch(/is a fork/);
    expect(reason({ ...PUSH, repositoryIsFork: true, expectedRepository: "owner/repo" })).toBe(
      "allowed",
    );
    expect(reason({ ...PUSH, expectedRepository: "upstream/repo" })).toMatch(/a fork\?/);
    expect(reason({ ...PUSH, repository: undefined, expectedRepository: "owner/repo" })).toMatch(
      /repository is unknown/,
    );
  });
});

describe("writeContextFrom", () => {
  const pushPayload = {
    ref: "refs/heads/main",
    repository: { full_name: "owner/repo", default_branch: "main", fork: false },
    head_commit: {
      id: "b".repeat(40),
      message: "subject\n\nbody",
      timestamp: "2025-01-02T03:04:05+01:00",
      author: { name: "Grace" },
      url: "https://github.com/owner/repo/commit/" + "b".repeat(40),
    },
  };
  const env = {
    GITHUB_EVENT_NAME: "push",
    GITHUB_REF: "refs/heads/main",
    GITHUB_REPOSITORY: "owner/repo",
  };

  it("reads GitHub's variables and payload", () => {
    expect(writeContextFrom(env, pushPayload, {})).toEqual({
      ...PUSH,
      expectedRepository: undefined,
    });
  });

  it("takes flags outside Actions, with a bare branch name for --ref", () => {
    const context = writeContextFrom({}, undefined, {
      event: "push",
      ref: "main",
      defaultBranch: "main",
    });
    expect(checkHistoryWrite(context).allowed).toBe(true);
    expect(() => writeContextFrom({}, undefined, {})).toThrow(/cannot tell which event/);
  });

  it("refuses flags that contradict GitHub (a PR cannot pose as a push)", () => {
    const prEnv = { ...env, GITHUB_EVENT_NAME: "pull_request", GITHUB_REF: "refs/pull/7/merge" };
    expect(() => writeContextFrom(prEnv, {}, { event: "push" })).toThrow(/contradicts/);
    expect(() => writeContextFrom(prEnv, {}, { ref: "refs/heads/main" })).toThrow(/contradicts/);
    expect(() => writeContextFrom(env, pushPayload, { defaultBranch: "dev" })).toThrow(
      /contradicts/,
    );
  });

  it("sees a fork's pull request from a branch named main for what it is", () => {
    const payload = {
      pull_request: {
        head: { ref: "main", repo: { full_name: "evil/fork" } },
        base: { ref: "main", repo: { full_name: "owner/repo" } },
      },
      repository: { full_name: "owner/repo", default_branch: "main" },
    };
    const context = writeContextFrom(
      { ...env, GITHUB_EVENT_NAME: "pull_request", GITHUB_REF: "refs/pull/7/merge" },
      payload,
      {},
    );
    expect(context.headRepository).toBe("evil/fork");
    expect(checkHistoryWrite(context).allowed).toBe(false);
    // Even a push-shaped context with that head repository is refused.
    expect(checkHistoryWrite({ ...context, eventName: "push", ref: "refs/heads/main" })).toEqual({
      allowed: false,
      reason: 'the measured code comes from "evil/fork", not from "owner/repo"',
    });
  });

  it("marks a fork repository", () => {
    const payload = { repository: { ...pushPayload.repository, fork: true } };
    expect(writeContextFrom(env, payload, {}).repositoryIsFork).toBe(true);
  });

  it("ignores payload fields of the wrong type", () => {
    const context = writeContextFrom(env, { repository: { default_branch: 7 } }, {});
    expect(context.defaultBranch).toBeUndefined();
    expect(checkHistoryWrite(context).allowed).toBe(false);
  });
});

describe("headCommitFrom", () => {
  it("describes the pushed commit only when it is the recorded one", () => {
    const payload = {
      head_commit: {
        id: "c".repeat(40),
        message: "m",
        timestamp: "2025-01-02T03:04:05Z",
        author: { name: "n" },
        url: "http://insecure.example/commit",
      },
    };
    expect(headCommitFrom(payload, "c".repeat(40))).toEqual({
      message: "m",
      date: "2025-01-02T03:04:05Z",
      author: "n",
    });
    expect(headCommitFrom(payload, "d".repeat(40))).toEqual({});
    expect(headCommitFrom(undefined, "d".repeat(40))).toEqual({});
  });

  it("fullRef keeps full refs", () => {
    expect(fullRef("refs/tags/v1")).toBe("refs/tags/v1");
    expect(fullRef("main")).toBe("refs/heads/main");
  });
});
