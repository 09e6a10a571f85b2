// `benchgate runner-hook` run as the runner runs its job-started hook: GITHUB_* variables and
// the event payload in a file, exit code and one line on stderr (docs/threat-model.md, R2). The
// hook uses no network, so an unreachable API cannot hang it: it is run here with every proxy
// variable pointing at a closed port, and must still decide.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_SOURCE, ROOT } from "./support/cli.ts";
import { pullRequestOpened, push } from "./support/webhook-payloads.ts";

const REPO = "octo-org/bench";
const dir = mkdtempSync(path.join(os.tmpdir(), "benchgate-hook-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hook(env: Record<string, string>, payload: unknown, args: string[] = []) {
  const eventPath = path.join(dir, `event-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(eventPath, JSON.stringify(payload));
  return spawnSync(process.execPath, [CLI_SOURCE, "runner-hook", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      PATH: process.env["PATH"] ?? "",
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: REPO,
      ...env,
    },
    timeout: 30_000,
  });
}

describe("benchgate runner-hook", () => {
  it("exits 0 for a push to the default branch and 1 for a fork's pull request, saying why", () => {
    const ok = hook(
      {
        GITHUB_EVENT_NAME: "push",
        GITHUB_REF: "refs/heads/main",
        GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/benchgate-main.yml@refs/heads/main`,
      },
      push({ repository: REPO }),
    );
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toBe("benchgate runner-hook: allowed: a push to refs/heads/main\n");

    const fork = hook(
      {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_REF: "refs/pull/8/merge",
        GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/benchgate-pr.yml@refs/pull/8/merge`,
      },
      pullRequestOpened({ number: 8, repository: REPO, headRepo: "mallory/bench" }),
    );
    expect(fork.status).toBe(1);
    expect(fork.stderr).toMatch(
      /^benchgate runner-hook: refused: a pull request from mallory\/bench/,
    );
  });

  it("honours --default-branch and --workflows", () => {
    const env = {
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: "refs/heads/trunk",
      GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/bench.yml@refs/heads/trunk`,
    };
    expect(hook(env, push({ repository: REPO })).status).toBe(1);
    const r = hook(env, push({ repository: REPO }), [
      "--default-branch",
      "trunk",
      "--workflows",
      "bench.yml",
    ]);
    expect(r.status, r.stderr).toBe(0);
  });

  it("fails closed with exit 2 when the runner's variables or the event are missing or broken", () => {
    const base = {
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: "refs/heads/main",
      GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/benchgate-main.yml@refs/heads/main`,
    };
    const noRef = hook({ ...base, GITHUB_WORKFLOW_REF: "" }, push({ repository: REPO }));
    expect(noRef.status).toBe(2);
    expect(noRef.stderr).toMatch(/GITHUB_WORKFLOW_REF is not set/);
    const broken = hook(base, "{");
    const eventPath = path.join(dir, "not-json.json");
    writeFileSync(eventPath, "{ not json");
    const notJson = spawnSync(process.execPath, [CLI_SOURCE, "runner-hook"], {
      encoding: "utf8",
      env: {
        PATH: process.env["PATH"] ?? "",
        GITHUB_REPOSITORY: REPO,
        ...base,
        GITHUB_EVENT_PATH: eventPath,
      },
    });
    expect(notJson.status).toBe(2);
    // A JSON string is valid JSON but no event: refused, not crashed.
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/refused: the event payload is not an object/);
  });
});
