import { describe, expect, it } from "vitest";
import { parseEvent, payloadFacts } from "./event.ts";
import {
  headCommitFrom,
  headCommitOf,
  writeContextFrom,
  writeContextOf,
} from "../history/github-context.ts";

const SHA = "b".repeat(40);

const pushPayload = {
  ref: "refs/heads/main",
  before: "a".repeat(40),
  after: SHA,
  repository: { full_name: "owner/repo", default_branch: "main", fork: false },
  head_commit: {
    id: SHA,
    message: "subject\n\nbody",
    timestamp: "2025-01-02T03:04:05+01:00",
    author: { name: "Grace" },
    url: `https://github.com/owner/repo/commit/${SHA}`,
  },
};

describe("payloadFacts", () => {
  it("keeps what the history guard and record read from a push", () => {
    expect(parseEvent("push", pushPayload).facts).toEqual({
      repository: "owner/repo",
      defaultBranch: "main",
      fork: false,
      headCommit: {
        id: SHA,
        message: "subject\n\nbody",
        timestamp: "2025-01-02T03:04:05+01:00",
        author: "Grace",
        url: `https://github.com/owner/repo/commit/${SHA}`,
      },
    });
  });

  it("keeps where a pull request's code came from, and a deleted fork as unknown", () => {
    const pr = (repo: unknown): unknown => ({
      pull_request: { head: { repo } },
      repository: { full_name: "owner/repo", default_branch: "main", fork: true },
    });
    expect(payloadFacts(pr({ full_name: "evil/fork" }))).toEqual({
      repository: "owner/repo",
      defaultBranch: "main",
      fork: true,
      pullRequest: { headRepository: "evil/fork" },
    });
    expect(payloadFacts(pr(null)).pullRequest).toEqual({});
  });

  it("leaves out what is missing, of another type or implausibly long, and never throws", () => {
    expect(payloadFacts(undefined)).toEqual({ fork: false });
    expect(payloadFacts([1, 2])).toEqual({ fork: false });
    expect(
      payloadFacts({
        repository: { full_name: "x".repeat(257), default_branch: 7, fork: "true" },
        head_commit: { id: 5, message: "", timestamp: "t".repeat(41), author: "Grace" },
      }),
    ).toEqual({ fork: false, headCommit: {} });
  });

  it("gives the action the guard's inputs and the commit the CLI reads from the raw payload", () => {
    const env = {
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: "refs/heads/main",
      GITHUB_REPOSITORY: "owner/repo",
    };
    const facts = parseEvent("push", pushPayload).facts ?? { fork: false };
    const run = { eventName: "push", ref: "refs/heads/main", repository: "owner/repo" };
    expect(writeContextOf({ ...run, payload: facts }, {})).toEqual(
      writeContextFrom(env, pushPayload, {}),
    );
    expect(headCommitOf(facts.headCommit, SHA)).toEqual(headCommitFrom(pushPayload, SHA));
    expect(headCommitOf(facts.headCommit, SHA)).toEqual({
      message: "subject\n\nbody",
      date: "2025-01-02T03:04:05+01:00",
      author: "Grace",
      url: `https://github.com/owner/repo/commit/${SHA}`,
    });
  });
});
