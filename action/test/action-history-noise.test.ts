// One run per side with the noise from the history (docs/action.md, "One run per side: noise from
// the history"), as GitHub runs the split workflow: the bundled action in mode: measure with the
// base config's `rounds: 1`, then mode: report on the pull request (and on a /rebench) with
// `history-branch: gh-pages` pointing at a local bare repository. The history on that branch is
// made of real single runs on this machine: the base commit measured in thirty more rounds, each
// round's sample medians one default-branch record with the runner's fingerprint, as `history
// append` would store a one-round report. The report job only reads the branch.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { GATE_MARKER } from "../src/github/sticky-comment.ts";
import { HISTORY_NOISE_DEFAULTS } from "../src/history/estimate-history-noise.ts";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";
import { commitAll, git, throwAwayRepo, type ThrowAwayRepo } from "./support/git-repo.ts";
import { startGitHubServer, type GitHubServer } from "./support/github-server.ts";
import { singleRunHistory } from "./support/single-run-history.ts";
import { actionTestConfig, runAction, type ActionRun } from "./support/run-action.ts";
import { issueCommentOnPull, pullRequestOpened } from "./support/webhook-payloads.ts";
import {
  BOT_ID,
  DEMO_CONFIG,
  DEMO_REPOSITORY,
  demoPull,
  expectServerClean,
  prepareActionTest,
} from "./support/action-scene.ts";

const LONG = 900_000;
const PR = 21;
/**
 * Default-branch records in the history: one per base round of the history's measure run. A
 * series needs HISTORY_NOISE_DEFAULTS.minRecords since its last change point; a full window of them
 * leaves room for a change point the detector may find in real timings of a noisy machine.
 */
const RECORDS = HISTORY_NOISE_DEFAULTS.window;

let server: GitHubServer;
let scratch: string;
let repo: ThrowAwayRepo;
/** The pull request's measure job: one run of base and one of head. */
let measured: string;
/** The history's runs: the base commit measured RECORDS times on this machine. */
let baseRuns: string;

beforeAll(async () => {
  scratch = await prepareActionTest("action-history-noise");
  repo = throwAwayRepo(path.join(scratch, "repo"), {
    base: { [DEMO_CONFIG]: actionTestConfig({ rounds: 1 }) },
    headPatch: true,
  });
  server = await startGitHubServer({
    repository: DEMO_REPOSITORY,
    tokens: { "test-token": "github-actions[bot]" },
    permissions: { alice: "write" },
    prs: [demoPull(PR, repo)],
  });
}, LONG);

afterAll(async () => {
  await server?.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

afterEach(() => expectServerClean(server));

const pullRequest = () => ({
  eventName: "pull_request",
  payload: pullRequestOpened({
    number: PR,
    headSha: repo.head,
    baseSha: repo.base,
    repository: DEMO_REPOSITORY,
    user: { login: "alice" },
  }) as unknown,
});

function measure(name: string, inputs: Readonly<Record<string, string>> = {}): Promise<ActionRun> {
  const event = pullRequest();
  return runAction({
    server,
    workspace: repo.dir,
    dir: path.join(scratch, name),
    eventName: event.eventName,
    payload: event.payload,
    inputs: {
      mode: "measure",
      config: DEMO_CONFIG,
      out: path.join(scratch, name, "out"),
      "github-token": "",
      ...inputs,
    },
  });
}

function report(
  name: string,
  inputs: Readonly<Record<string, string>>,
  event = pullRequest(),
): Promise<ActionRun> {
  return runAction({
    server,
    workspace: repo.dir,
    dir: path.join(scratch, name),
    eventName: event.eventName,
    payload: event.payload,
    inputs: {
      mode: "report",
      config: DEMO_CONFIG,
      out: path.join(scratch, name, "out"),
      results: measured,
      "measure-result": "success",
      ...inputs,
    },
  });
}

function summary(dir: string, name: string): BenchSummary {
  return JSON.parse(readFileSync(path.join(dir, "summaries", name), "utf8")) as BenchSummary;
}

/** A record's commit: a default-branch SHA this throw-away repository does not have. */
function recordSha(i: number): string {
  return createHash("sha1").update(`default-branch commit ${i}`).digest("hex");
}

/** Each base round of the history's run as one single-run record, as `history append` stores it. */
function historyOfBaseRuns(): BenchHistory {
  const runs = Array.from({ length: RECORDS }, (_, i) => summary(baseRuns, `base-${i + 1}.json`));
  return singleRunHistory(runs, { sha: recordSha });
}

/** A bare repository whose gh-pages branch holds `files` under benchgate/. */
function pagesRemote(name: string, files: Readonly<Record<string, string>>): string {
  const remote = path.join(scratch, `${name}.git`);
  git(scratch, ["init", "--quiet", "--bare", remote]);
  const work = path.join(scratch, `${name}-work`);
  mkdirSync(path.join(work, "benchgate"), { recursive: true });
  git(work, ["init", "--quiet"]);
  git(work, ["checkout", "--quiet", "--orphan", "gh-pages"]);
  for (const [file, text] of Object.entries(files))
    writeFileSync(path.join(work, "benchgate", file), text);
  commitAll(work, "benchgate: history");
  git(work, ["push", "--quiet", remote, "HEAD:refs/heads/gh-pages"]);
  return remote;
}

const tip = (remote: string) => git(remote, ["rev-parse", "refs/heads/gh-pages"]).trim();
const readReport = (r: ActionRun) =>
  JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as BenchReport;
const sticky = () =>
  server.state.comments.filter(
    (c) => c.issue_number === PR && c.user.id === BOT_ID && c.body.includes(GATE_MARKER),
  );
const said = (r: ActionRun, name: string) =>
  r.commands.filter((c) => c.name === name).map((c) => c.message);

describe("mode: report with one run per side and history-branch", { timeout: LONG }, () => {
  let history: BenchHistory;
  let pages: string;

  it("measures the pull request once per side, and the base thirty times for the history", async () => {
    const pr = await measure("measure");
    expect(pr.status, pr.said).toBe(0);
    measured = path.join(scratch, "measure/out");
    expect(readdirSync(path.join(measured, "summaries")).sort()).toEqual([
      "base-1.json",
      "head-1.json",
    ]);
    const runs = await measure("measure-history", { rounds: String(RECORDS) });
    expect(runs.status, runs.said).toBe(0);
    baseRuns = path.join(scratch, "measure-history/out");

    history = historyOfBaseRuns();
    const fingerprint = summary(measured, "head-1.json").environment?.fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{16,64}$/);
    expect(history.commits.map((c) => c.fingerprint)).toEqual(Array(RECORDS).fill(fingerprint));
    expect(history.series.map((s) => s.id)).toEqual(
      expect.arrayContaining(["normalize", "checksum/fnv1a", "help"]),
    );
    pages = pagesRemote("pages", { "history.json": JSON.stringify(history) });
  });

  it("tests each benchmark against its noise in the history, and leaves the branch as it was", async () => {
    const before = tip(pages);
    const r = await report("with-history", {
      "history-branch": "gh-pages",
      "history-remote": pages,
    });
    expect(r.status, r.said).toBe(1);
    const ours = readReport(r);
    expect(ours.mode, r.said).toBe("history");
    expect(ours.noise.history).toMatchObject({
      commits: RECORDS,
      first: recordSha(1),
      last: recordSha(RECORDS),
      fingerprint: history.commits[0]?.fingerprint,
    });
    // A benchmark with enough records since its last change point is tested (a p-value, not
    // the unverified threshold). How many have, and the verdicts, depend on this machine's
    // timings, so neither is asserted. The step fails on cli-help's changed golden output
    // whatever the timings.
    const used = ours.noise.history;
    expect(used?.benchmarks).toBeGreaterThan(0);
    expect((used?.benchmarks ?? 0) + (used?.without ?? 0)).toBe(ours.benchmarks.length);
    const tested = ours.benchmarks.filter((b) => !b.unverified);
    expect(tested).toHaveLength(used?.benchmarks ?? -1);
    for (const b of tested) {
      expect(b.p, b.id).not.toBeNull();
      expect(b.notes.join(" "), b.id).toMatch(/noise from \d+ history records of this runner/);
    }
    expect(ours.golden.map((g) => [g.name, g.ok])).toContainEqual(["cli-help", false]);
    expect(sticky()).toHaveLength(1);
    expect(sticky()[0]?.body).toBe(r.outputs["markdown"]);
    expect(sticky()[0]?.body).toContain("noise from");
    expect(r.stdout).toMatch(
      /one run per side: each benchmark's noise from .*pages\.git gh-pages:/,
    );
    expect(r.stdout).toContain(`gh-pages:benchgate/history.json (${RECORDS} records, read only)`);
    expect(said(r, "warning")).toEqual([]);
    // Read only: no commit on the branch, no failure about writing it.
    expect(tip(pages)).toBe(before);
    expect(r.stdout).not.toMatch(/recorded [0-9a-f]{40} in|history was not written/);
  });

  it("a /rebench report reads the history the same way", async () => {
    const asked = server.seedComment({ issue_number: PR, user: "alice", body: "/rebench" });
    const r = await report(
      "rebench",
      {
        "history-branch": "gh-pages",
        "history-remote": pages,
        "base-sha": repo.base,
        "head-sha": repo.head,
        "pr-number": String(PR),
        "command-comment-id": String(asked.id),
      },
      {
        eventName: "issue_comment",
        payload: issueCommentOnPull({
          body: asked.body,
          user: { login: "alice", id: asked.user.id, type: "User" },
          commentId: asked.id,
          issueNumber: PR,
          repository: DEMO_REPOSITORY,
        }),
      },
    );
    expect(r.status, r.said).toBe(1);
    expect(readReport(r).mode).toBe("history");
    expect(readReport(r).noise.history?.commits).toBe(RECORDS);
  });

  it("a history too short for any benchmark is read, not used, and the log says so", async () => {
    const records = HISTORY_NOISE_DEFAULTS.minRecords - 1;
    const short = { ...history, commits: history.commits.slice(0, records) };
    const few = pagesRemote("pages-short", { "history.json": JSON.stringify(short) });
    const r = await report("short", { "history-branch": "gh-pages", "history-remote": few });
    expect(r.outputs["verdict"], r.said).not.toBe("error");
    expect(readReport(r).mode).toBe("single-run");
    expect(r.stdout).toContain(
      `the history was read but not used: no benchmark has ${records + 1} usable records in it`,
    );
    expect(said(r, "warning")).toEqual([]);
  });

  it("without the branch: unverified as before, and one log line says why", async () => {
    const empty = path.join(scratch, "empty.git");
    git(scratch, ["init", "--quiet", "--bare", empty]);
    const r = await report("no-branch", { "history-branch": "gh-pages", "history-remote": empty });
    expect(r.outputs["verdict"], r.said).toBeDefined();
    expect(r.outputs["verdict"]).not.toBe("error");
    const ours = readReport(r);
    expect(ours.mode).toBe("single-run");
    expect(ours.noise.history).toBeUndefined();
    expect(ours.benchmarks.every((b) => b.unverified)).toBe(true);
    expect(r.stdout.match(/no history in .* gh-pages:benchgate\/history\.json yet/g)).toHaveLength(
      1,
    );
    expect(said(r, "warning")).toEqual([]);
    expect(sticky()[0]?.body).not.toContain("noise from");
    // Nothing was created on the remote either.
    expect(git(empty, ["for-each-ref"]).trim()).toBe("");
  });

  it("a branch without history.json is the same: no history yet", async () => {
    const other = pagesRemote("pages-without-history", { "index.html": "<!doctype html>\n" });
    const r = await report("no-file", { "history-branch": "gh-pages", "history-remote": other });
    expect(r.outputs["verdict"]).not.toBe("error");
    expect(readReport(r).mode).toBe("single-run");
    expect(r.stdout).toMatch(/no history in .* gh-pages:benchgate\/history\.json yet/);
  });

  it("a history.json that fails the schema is hostile input: warned about, left out, never fatal", async () => {
    const bad = { ...history, commits: history.commits.map((c) => ({ ...c, sha: "HEAD~1" })) };
    const hostile = pagesRemote("pages-hostile", { "history.json": JSON.stringify(bad) });
    const before = tip(hostile);
    const r = await report("hostile", { "history-branch": "gh-pages", "history-remote": hostile });
    expect(r.outputs["verdict"], r.said).not.toBe("error");
    expect(readReport(r).mode).toBe("single-run");
    const warnings = said(r, "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is not used, so one run per side stays unverified/);
    expect(warnings[0]).toMatch(/hostile input/);
    // Names the file and where in it the schema failed.
    expect(warnings[0]).toMatch(/gh-pages:benchgate\/history\.json: \/commits\/0\/sha/);
    expect(tip(hostile)).toBe(before);
  });
  it("with several rounds per side the history is not read: the rounds measure their own noise", async () => {
    // A /rebench rounds=30 measured this (the history's own run, as its artifact).
    const r = await report("many-rounds", {
      results: baseRuns,
      rounds: String(RECORDS),
      "history-branch": "gh-pages",
      "history-remote": path.join(scratch, "no-such-remote.git"),
    });
    expect(r.outputs["verdict"], r.said).not.toBe("error");
    const ours = readReport(r);
    expect(ours.mode).toBe("rounds");
    expect(ours.noise.history).toBeUndefined();
    expect(r.stdout).toContain(
      `gh-pages:benchgate/history.json not read: ${RECORDS} rounds per side`,
    );
    expect(said(r, "warning")).toEqual([]);
  });

  it("a remote that cannot be fetched is warned about; the verdict stands without it", async () => {
    const r = await report("unreachable", {
      "history-branch": "gh-pages",
      "history-remote": path.join(scratch, "no-such-remote.git"),
    });
    expect(r.outputs["verdict"], r.said).not.toBe("error");
    expect(readReport(r).mode).toBe("single-run");
    expect(said(r, "warning")).toEqual([
      expect.stringMatching(
        /is not used, so one run per side stays unverified: .*cannot fetch gh-pages/,
      ),
    ]);
  });

  it("an input that is not a branch name is the workflow's mistake: an error verdict naming it", async () => {
    const r = await report("bad-input", { "history-branch": "gh-pages/../main" });
    expect(r.status, r.said).toBe(1);
    expect(r.outputs["verdict"]).toBe("error");
    expect(r.commands.at(-1)?.message).toMatch(
      /input 'history-branch': branch "gh-pages\/..\/main" is not a valid branch name/,
    );
  });
});
