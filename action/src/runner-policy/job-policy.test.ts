// The job-started policy (docs/threat-model.md, R2) as fixtures: the runner's environment and GitHub's event payload for each
// kind of job, with the hook's decision. Real webhook payloads from @octokit/webhooks-examples.
import { describe, expect, it } from "vitest";
import {
  pullRequestOpened,
  push,
  issueCommentOnPull,
} from "../../test/support/webhook-payloads.ts";
import { decideJob, parseWorkflowRef, type JobFacts } from "./job-policy.ts";

const REPO = "octo-org/bench";
const POLICY = {
  defaultBranch: "main",
  workflows: new Set(["benchgate-pr.yml", "benchgate-command.yml", "benchgate-main.yml"]),
};
const wf = (file: string, ref = "refs/heads/main") => `${REPO}/.github/workflows/${file}@${ref}`;

function facts(over: Partial<JobFacts>): JobFacts {
  return {
    eventName: "push",
    repository: REPO,
    ref: "refs/heads/main",
    workflowRef: wf("benchgate-main.yml"),
    payload: push({ repository: REPO }),
    ...over,
  };
}

describe("the runner's job-started policy (R2)", () => {
  it("allows a push to the default branch, and a same-repository pull request", () => {
    expect(decideJob(facts({}), POLICY).allow).toBe(true);
    const pr = facts({
      eventName: "pull_request",
      ref: "refs/pull/7/merge",
      workflowRef: wf("benchgate-pr.yml", "refs/pull/7/merge"),
      payload: pullRequestOpened({ number: 7, repository: REPO, headRepo: REPO }),
    });
    expect(decideJob(pr, POLICY)).toEqual({
      allow: true,
      why: `a pull request from a branch of ${REPO}`,
    });
  });

  it("allows the command workflow of the default branch", () => {
    const comment = facts({
      eventName: "issue_comment",
      workflowRef: wf("benchgate-command.yml"),
      payload: issueCommentOnPull({ repository: REPO }),
    });
    expect(decideJob(comment, POLICY).allow).toBe(true);
  });

  it.each<[string, Partial<JobFacts>, RegExp]>([
    [
      "a fork's pull request (even though its rewritten workflow says otherwise)",
      {
        eventName: "pull_request",
        ref: "refs/pull/8/merge",
        workflowRef: wf("benchgate-pr.yml", "refs/pull/8/merge"),
        payload: pullRequestOpened({ number: 8, repository: REPO, headRepo: "mallory/bench" }),
      },
      /from mallory\/bench into octo-org\/bench: fork code never runs here/,
    ],
    [
      "a pull request whose fork was deleted",
      {
        eventName: "pull_request",
        payload: (() => {
          const p = pullRequestOpened({ number: 9, repository: REPO }) as unknown as {
            pull_request: { head: { repo: unknown } };
          };
          p.pull_request.head.repo = null;
          return p;
        })(),
        workflowRef: wf("benchgate-pr.yml", "refs/pull/9/merge"),
      },
      /without head and base repositories/,
    ],
    ["a push to another branch", { ref: "refs/heads/feature" }, /not to the default branch/],
    [
      "a push whose workflow file comes from another branch",
      { workflowRef: wf("benchgate-main.yml", "refs/heads/feature") },
      /not to the default branch/,
    ],
    [
      "workflow_dispatch (any writer can fire it with any inputs)",
      { eventName: "workflow_dispatch", workflowRef: wf("benchgate-main.yml") },
      /workflow_dispatch jobs never run on the benchmark runner/,
    ],
    [
      "workflow_dispatch from a non-default ref",
      {
        eventName: "workflow_dispatch",
        ref: "refs/heads/x",
        workflowRef: wf("benchgate-main.yml", "refs/heads/x"),
      },
      /never run/,
    ],
    ["pull_request_target", { eventName: "pull_request_target" }, /never run/],
    [
      "a workflow that is not one of the runner's",
      { workflowRef: wf("release.yml") },
      /release\.yml is not one of this runner's/,
    ],
    [
      "a workflow of another repository",
      { workflowRef: `mallory/bench/.github/workflows/benchgate-main.yml@refs/heads/main` },
      /belongs to another repository/,
    ],
    [
      "a comment workflow from a branch",
      {
        eventName: "issue_comment",
        workflowRef: wf("benchgate-command.yml", "refs/heads/feature"),
      },
      /not the default branch/,
    ],
    ["a malformed workflow ref", { workflowRef: "benchgate-main.yml" }, /not a workflow/],
  ])("refuses %s", (_, over, why) => {
    const decision = decideJob(facts(over), POLICY);
    expect(decision.allow).toBe(false);
    expect(decision.why).toMatch(why);
  });

  it("parses workflow refs strictly", () => {
    expect(parseWorkflowRef(wf("benchgate-pr.yml", "refs/pull/1/merge"))).toEqual({
      repository: REPO,
      file: "benchgate-pr.yml",
      ref: "refs/pull/1/merge",
    });
    for (const bad of [
      `${REPO}/.github/workflows/../x.yml@refs/heads/main`,
      `${REPO}/.github/workflows/a.yml@main`,
      `${REPO}/.github/workflows/a.yml@refs/heads/main\nx`,
    ])
      expect(parseWorkflowRef(bad), bad).toBeUndefined();
  });
});
