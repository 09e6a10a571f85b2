// Static checks on every workflow this repository runs and on what `benchgate init` writes
// (docs/threat-model.md, W1–W11), then actionlint and zizmor over both.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PINNED_ACTIONS } from "../src/init/pinned-actions.ts";
import { DEFAULT_BRANCH, DEFAULT_RUNNER_LABELS, renderWorkflows } from "../src/init/workflows.ts";
import {
  ACTIONLINT_CONFIG,
  PLACEHOLDER_PINNED_REF,
  findTools,
  initOutputDir,
  lintAll,
  lintRepo,
  lintUnpinnedDefault,
} from "../../scripts/lint-workflows.ts";
import { ROOT } from "./support/cli.ts";

type Json = Record<string, unknown>;
const WORKFLOWS_DIR = path.join(ROOT, ".github/workflows");
const THIS_REPO = {
  actionRef: "./action",
  runnerLabels: DEFAULT_RUNNER_LABELS,
  defaultBranch: DEFAULT_BRANCH,
};

const repoFiles = readdirSync(WORKFLOWS_DIR)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => ({
    name: `.github/workflows/${name}`,
    text: readFileSync(path.join(WORKFLOWS_DIR, name), "utf8"),
  }));
const PINNED_REF = `owner/repo/action@${"b".repeat(40)}`;
const initFiles = [
  ...[...renderWorkflows({ ...THIS_REPO, actionRef: PINNED_REF })].map(([name, text]) => ({
    name: `init: ${name}`,
    text,
  })),
  // A measure matrix over three runners (`init --shards 3`): the same rules hold for each shard.
  ...[...renderWorkflows({ ...THIS_REPO, actionRef: PINNED_REF, shards: 3 })].map(
    ([name, text]) => ({ name: `init --shards 3: ${name}`, text }),
  ),
  // The measure job on GitHub's shared ubuntu-latest (`init --runner github-hosted`).
  ...[...renderWorkflows({ ...THIS_REPO, actionRef: PINNED_REF, runner: "github-hosted" })].map(
    ([name, text]) => ({ name: `init --runner github-hosted: ${name}`, text }),
  ),
];
const shardedLocal = [...renderWorkflows({ ...THIS_REPO, shards: 3 })].map(([name, text]) => ({
  name: `init --shards 3 --action-ref ./action: ${name}`,
  text,
}));
const ALL = [...repoFiles, ...initFiles, ...shardedLocal];

function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : {};
}
function triggers(doc: Json): string[] {
  const on = doc["on"];
  if (typeof on === "string") return [on];
  if (Array.isArray(on)) return on.map(String);
  return Object.keys(obj(on));
}
function jobsOf(doc: Json): [string, Json][] {
  return Object.entries(obj(doc["jobs"])).map(([id, job]) => [id, obj(job)]);
}
function stepsOf(job: Json): Json[] {
  return Array.isArray(job["steps"]) ? job["steps"].map(obj) : [];
}
function labels(job: Json): string[] {
  const runsOn = job["runs-on"];
  return (Array.isArray(runsOn) ? runsOn : [runsOn]).map(String);
}

describe.each(ALL)("$name", ({ text }) => {
  const doc = obj(parse(text) as unknown);
  const jobs = jobsOf(doc);

  it("W2: declares top-level permissions that grant nothing beyond read, and never write-all", () => {
    expect(doc).toHaveProperty("permissions");
    const top = doc["permissions"];
    expect(typeof top === "string" ? top : Object.values(obj(top))).not.toContain("write");
    expect(text).not.toMatch(/write-all/);
    for (const [, job] of jobs) expect(job["permissions"]).not.toBe("write-all");
  });

  it("W3: uses no pull_request_target or workflow_run, and no unsafe checkout opt-in", () => {
    expect(triggers(doc)).not.toContain("pull_request_target");
    expect(triggers(doc)).not.toContain("workflow_run");
    expect(text).not.toContain("allow-unsafe-pr-checkout");
    if (triggers(doc).includes("issue_comment")) {
      // A comment job checks out nothing but the trusted default branch and the pinned commit.
      for (const [, job] of jobs)
        for (const step of stepsOf(job))
          if (String(step["uses"]).startsWith("actions/checkout@"))
            expect([
              "${{ needs.authorize.outputs.head-sha }}",
              "${{ needs.authorize.outputs.base-sha }}",
              "${{ github.sha }}",
            ]).toContain(obj(step["with"])["ref"]);
    }
  });

  it("splits measuring from reporting: the job on the self-hosted runner may only read, and no job that may write checks out the change", () => {
    // docs/threat-model.md, W1: the code under test runs where no write token exists.
    const changeRefs = [
      undefined, // a pull_request checkout without ref is the change itself
      "${{ needs.authorize.outputs.head-sha }}",
    ];
    for (const [id, job] of jobs) {
      const permissions = obj(job["permissions"]);
      const writes = Object.entries(permissions).filter(([, v]) => v === "write");
      if (labels(job).includes("self-hosted")) {
        expect(permissions, id).toEqual({ contents: "read" });
        continue;
      }
      if (writes.length === 0 || !triggers(doc).some((t) => t !== "push")) continue;
      for (const step of stepsOf(job))
        if (String(step["uses"]).startsWith("actions/checkout@"))
          expect(changeRefs, `${id} may write and checks out the change`).not.toContain(
            obj(step["with"])["ref"],
          );
    }
  });

  it("W4: puts no untrusted ${{ }} inside any run:", () => {
    const untrusted =
      /\$\{\{\s*(?:github\.event\.|github\.head_ref|inputs\.|steps\.[^}]*\.outputs\.|needs\.[^}]*\.outputs\.)/;
    for (const [, job] of jobs)
      for (const step of stepsOf(job))
        if (typeof step["run"] === "string") expect(step["run"]).not.toMatch(untrusted);
  });

  it("W5: pins every action that is not local to a 40-hex commit, with its version", () => {
    for (const [, job] of jobs) {
      for (const step of stepsOf(job)) {
        const uses = step["uses"];
        if (typeof uses !== "string" || uses.startsWith("./")) continue;
        expect(uses).toMatch(/^[A-Za-z0-9-]+\/[A-Za-z0-9._/-]+@[0-9a-f]{40}$/);
      }
    }
    // Each with the comment Dependabot and Renovate update with it: the release, or for
    // dtolnay/rust-toolchain (no releases) the branch the commit was the head of.
    for (const line of text.split("\n").filter((l) => /^\s*(?:- )?uses: (?!\.\/)/.test(l))) {
      if (line.includes("owner/repo/action@")) continue;
      const pin = Object.values(PINNED_ACTIONS).find((p) => line.includes(`${p.action}@`));
      expect(pin, line).toBeDefined();
      expect(line).toMatch(new RegExp(`@${pin?.sha ?? "-"} # ${pin?.version ?? "-"}$`));
    }
  });

  it("W5: uses the same pinned commit of each action everywhere", () => {
    for (const pin of Object.values(PINNED_ACTIONS))
      for (const match of text.matchAll(new RegExp(`${pin.action}@([0-9a-f]{40})`, "g")))
        expect(match[1]).toBe(pin.sha);
  });

  it("W6: never persists checkout credentials", () => {
    for (const [, job] of jobs)
      for (const step of stepsOf(job))
        if (String(step["uses"]).startsWith("actions/checkout@"))
          expect(obj(step["with"])["persist-credentials"]).toBe(false);
  });

  it("W7: reaches the self-hosted runner only from a guarded job, and times out every job", () => {
    for (const [id, job] of jobs) {
      expect(job["timeout-minutes"], id).toEqual(expect.any(Number));
      if (!labels(job).includes("self-hosted")) continue;
      const on = triggers(doc);
      const pushToDefault =
        on.length === 1 &&
        on[0] === "push" &&
        JSON.stringify(obj(obj(doc["on"])["push"])["branches"]) ===
          JSON.stringify([DEFAULT_BRANCH]);
      const sameRepoPr =
        on.length === 1 &&
        on[0] === "pull_request" &&
        job["if"] === "github.event.pull_request.head.repo.full_name == github.repository";
      const authorized =
        job["needs"] === "authorize" && job["if"] === "needs.authorize.outputs.run == 'true'";
      expect(pushToDefault || sameRepoPr || authorized, `${id} runs on self-hosted unguarded`).toBe(
        true,
      );
    }
  });

  it("W8: writes no if: whose ${{ }} leaves text outside it (always true)", () => {
    const conditions = jobs.flatMap(([, job]) => [job["if"], ...stepsOf(job).map((s) => s["if"])]);
    for (const condition of conditions) {
      if (typeof condition !== "string" || !condition.includes("${{")) continue;
      expect(condition).toMatch(/^\$\{\{[^\n]*\}\}$/);
      expect(condition.indexOf("${{", 1)).toBe(-1);
    }
    // A block scalar keeps its trailing newline unless it strips it (|- or >-).
    expect(text).not.toMatch(/\bif:\s*[|>][+0-9]*\s*(?:#.*)?$/m);
  });
});

describe("this repository's gate workflows", () => {
  it("are exactly what `benchgate init --action-ref ./action` writes", () => {
    for (const [file, text] of renderWorkflows(THIS_REPO))
      expect(readFileSync(path.join(ROOT, file), "utf8"), file).toBe(text);
  });

  it("pass only inputs action/action.yml declares, and read only outputs it sets", () => {
    const action = obj(
      parse(readFileSync(path.join(ROOT, "action/action.yml"), "utf8")) as unknown,
    );
    const inputs = Object.keys(obj(action["inputs"]));
    const outputs = Object.keys(obj(action["outputs"]));
    for (const { name, text } of initFiles) {
      for (const [, job] of jobsOf(obj(parse(text) as unknown))) {
        for (const step of stepsOf(job)) {
          if (!String(step["uses"]).startsWith("owner/repo/action@")) continue;
          for (const input of Object.keys(obj(step["with"]))) expect(inputs, name).toContain(input);
        }
        for (const value of Object.values(obj(job["outputs"])))
          expect(outputs).toContain(
            /steps\.authorize\.outputs\.([a-z-]+)/.exec(String(value))?.[1],
          );
      }
    }
  });
});

describe("the release workflow", () => {
  // Not written by `benchgate init`, but linted and held to W1–W11 like every file above.
  const release = repoFiles.find((f) => f.name === ".github/workflows/release.yml");

  it("is among the workflows checked and linted", () => {
    expect(release).toBeDefined();
  });

  it("runs scripts/release.ts with npm publish as a dry run, and may write nothing", () => {
    const doc = obj(parse(release?.text ?? "") as unknown);
    expect(doc["permissions"]).toEqual({ contents: "read" });
    const runs = jobsOf(doc).flatMap(([, job]) =>
      stepsOf(job).map((step) => (typeof step["run"] === "string" ? step["run"] : "")),
    );
    const releaseRun = runs.find((run) => run.includes("scripts/release.ts"));
    expect(releaseRun).toMatch(/--dry-run/);
    expect(releaseRun).not.toMatch(/--push/);
    for (const [, job] of jobsOf(doc)) expect(job["permissions"]).toBeUndefined();
  });
});

describe("actionlint and zizmor", () => {
  const tools = findTools();
  const missing = tools.actionlint === undefined || tools.zizmor === undefined;
  const inCi = (process.env["CI"] ?? "") !== "";
  const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-workflows-test-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("are installed (scripts/setup.sh) wherever CI runs", () => {
    if (!inCi && missing)
      console.warn("actionlint/zizmor missing: run bash scripts/setup.sh; the lint tests skip");
    if (inCi) {
      expect(tools.actionlint, "actionlint").toBeTypeOf("string");
      expect(tools.zizmor, "zizmor").toBeTypeOf("string");
    }
  });

  it.skipIf(missing && !inCi)(
    "report nothing on .github/workflows and on init's output linted as a user's repository; on the default ref, only its unpinned benchgate action",
    () => {
      const results = lintAll({ actionlint: tools.actionlint ?? "", zizmor: tools.zizmor ?? "" });
      expect(results.map((r) => `${r.tool} on ${r.target}`)).toEqual([
        "actionlint on .github/workflows",
        "zizmor on .github/workflows",
        "actionlint on benchgate init --action-ref <SHA>",
        "zizmor on benchgate init --action-ref <SHA>",
        "actionlint on benchgate init --runner github-hosted --action-ref <SHA>",
        "zizmor on benchgate init --runner github-hosted --action-ref <SHA>",
        "actionlint on benchgate init",
        "zizmor on benchgate init output with benchgate/benchgate/action@v0 (no release SHA known)",
      ]);
      for (const r of results) expect(r.ok, `${r.tool} on ${r.target}:\n${r.output}`).toBe(true);
      // A build from source knows no release SHA: zizmor reports the unpinned ref, honestly.
      expect(results.at(-1)?.expected).toMatch(
        /^7 unpinned-uses of benchgate\/benchgate\/action@v0/,
      );
    },
  );

  it.skipIf(missing && !inCi)(
    "need init's own actionlint.yaml: without it the runner's label is unknown",
    () => {
      const resolved = { actionlint: tools.actionlint ?? "", zizmor: tools.zizmor ?? "" };
      const dir = initOutputDir(["--action-ref", PLACEHOLDER_PINNED_REF]);
      try {
        expect(lintRepo(dir, "as written", resolved).every((r) => r.ok)).toBe(true);
        rmSync(path.join(dir, ".github/actionlint.yaml"));
        const [actionlint] = lintRepo(dir, "without actionlint.yaml", resolved);
        expect(actionlint?.ok).toBe(false);
        expect(actionlint?.output).toMatch(/label "benchgate" is unknown/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(missing && !inCi)(
    "fail the default ref's lint on any finding but the benchgate action's unpinned-uses",
    () => {
      const resolved = { actionlint: tools.actionlint ?? "", zizmor: tools.zizmor ?? "" };
      const dir = initOutputDir([]);
      try {
        expect(lintUnpinnedDefault(dir, resolved).ok).toBe(true);
        const file = path.join(dir, ".github/workflows/benchgate-pr.yml");
        const pinned = `${PINNED_ACTIONS.checkout.action}@${PINNED_ACTIONS.checkout.sha} # ${PINNED_ACTIONS.checkout.version}`;
        writeFileSync(file, readFileSync(file, "utf8").replace(pinned, "actions/checkout@v7"));
        const broken = lintUnpinnedDefault(dir, resolved);
        expect(broken.ok).toBe(false);
        expect(broken.output).toContain("actions/checkout@v7");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(missing && !inCi)(
    "report nothing on the matrix workflows of `benchgate init --shards 3`, remote or local action",
    () => {
      // As a user's repository: only what init wrote, its own actionlint.yaml included.
      const remote = initOutputDir([
        "--action-ref",
        PLACEHOLDER_PINNED_REF,
        "--shards",
        "3",
        "--workflows-only",
      ]);
      const local = path.join(scratch, "sharded-local");
      mkdirSync(path.join(local, ".github/workflows"), { recursive: true });
      for (const [file, text] of renderWorkflows({ ...THIS_REPO, shards: 3 }))
        writeFileSync(path.join(local, file), text);
      const resolved = { actionlint: tools.actionlint ?? "", zizmor: tools.zizmor ?? "" };
      const results = [
        ...lintRepo(remote, "init --shards 3", resolved),
        // benchgate's own layout: this repository's actionlint config.
        ...lintRepo(local, "init --shards 3 --action-ref ./action", resolved, ACTIONLINT_CONFIG),
      ];
      rmSync(remote, { recursive: true, force: true });
      expect(results).toHaveLength(4);
      for (const r of results) expect(r.ok, `${r.tool} on ${r.target}:\n${r.output}`).toBe(true);
    },
  );

  it.skipIf(missing && !inCi)(
    "do report a workflow with an injection and an unpinned action",
    () => {
      mkdirSync(path.join(scratch, ".github/workflows"), { recursive: true });
      writeFileSync(
        path.join(scratch, ".github/workflows/bad.yml"),
        [
          "on: pull_request",
          "jobs:",
          "  x:",
          "    runs-on: ubuntu-latest",
          "    steps:",
          "      - uses: actions/checkout@v4",
          '      - run: echo "${{ github.event.pull_request.title }}"',
          "",
        ].join("\n"),
      );
      const results = lintRepo(scratch, "bad", {
        actionlint: tools.actionlint ?? "",
        zizmor: tools.zizmor ?? "",
      });
      const zizmor = results.find((r) => r.tool === "zizmor");
      expect(zizmor?.ok).toBe(false);
      expect(zizmor?.output).toMatch(/template-injection/);
      expect(zizmor?.output).toMatch(/unpinned-uses|artipacked/);
      expect(results.find((r) => r.tool === "actionlint")?.ok).toBe(false);
    },
  );
});
