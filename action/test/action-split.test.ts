// The split workflow (docs/threat-model.md, W1) as GitHub runs it: the bundled action in
// mode: measure (the self-hosted job that runs the change's code: no API call at all), then in
// mode: report (the GitHub-hosted job with the write token: it reads the measure job's folder as
// hostile data and decides with the base commit's config). One real measurement of the demo's
// head patch (a changed --help line; `normalize` at ×30, support/git-repo.ts NORMALIZE_30X); the
// report runs reuse its folder, as downloaded artifacts, and tamper with copies of it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { GATE_MARKER } from "../src/github/sticky-comment.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import { git, NORMALIZE_30X, throwAwayRepo, type ThrowAwayRepo } from "./support/git-repo.ts";
import { startGitHubServer, type GitHubServer } from "./support/github-server.ts";
import { actionTestConfig, runAction, type ActionRun } from "./support/run-action.ts";
import { issueCommentOnPull, pullRequestOpened, push } from "./support/webhook-payloads.ts";
import {
  BOT_ID,
  DEMO_CONFIG,
  DEMO_REPOSITORY,
  demoPull,
  expectServerClean,
  prepareActionTest,
} from "./support/action-scene.ts";

const LONG = 600_000;
const REPOSITORY = DEMO_REPOSITORY;
const CONFIG = DEMO_CONFIG;
const PR = 11;

let server: GitHubServer;
let scratch: string;
let repo: ThrowAwayRepo;
/** The measure job's folder: what the report job downloads. */
let measured: string;

beforeAll(async () => {
  scratch = await prepareActionTest("action-split");
  repo = throwAwayRepo(path.join(scratch, "repo"), {
    base: { [CONFIG]: actionTestConfig() },
    headPatch: true,
    // The change loosens the statistics (a 1000 % fail threshold): the report job must judge
    // with the base commit's config, whatever the change or its artifact say, and the report's
    // settings show which one judged. normalize ×30, not the patch's ×3, so that the base
    // config's rule confirms it with three rounds on a busy machine too.
    head: {
      ...NORMALIZE_30X,
      [CONFIG]: `${actionTestConfig()}\nstatistics:\n  fail-threshold: 10\n`,
    },
  });
  server = await startGitHubServer({
    repository: REPOSITORY,
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

const pullRequestEvent = {
  eventName: "pull_request",
  payload: () =>
    pullRequestOpened({
      number: PR,
      headSha: repo.head,
      baseSha: repo.base,
      repository: REPOSITORY,
      user: { login: "alice" },
    }),
};

function report(
  name: string,
  inputs: Readonly<Record<string, string>>,
  event = { eventName: pullRequestEvent.eventName, payload: pullRequestEvent.payload() as unknown },
): Promise<ActionRun> {
  return runAction({
    server,
    workspace: repo.dir,
    dir: path.join(scratch, name),
    eventName: event.eventName,
    payload: event.payload,
    inputs: { mode: "report", config: CONFIG, out: path.join(scratch, name, "out"), ...inputs },
  });
}

/** A copy of the measure job's folder, changed by `tamper`, as a downloaded artifact would be. */
function artifact(name: string, tamper: (dir: string) => void = () => undefined): string {
  const dir = path.join(scratch, `${name}-artifact`);
  cpSync(measured, dir, { recursive: true });
  tamper(dir);
  return dir;
}

const checks = () => server.state.checkRuns.filter((c) => c.head_sha === repo.head);
const sticky = () =>
  server.state.comments.filter(
    (c) => c.issue_number === PR && c.user.id === BOT_ID && c.body.includes(GATE_MARKER),
  );
const operations = (r: ActionRun) => r.requests.map((q) => [q.method, q.operationId]);
const readReport = (file: string) => JSON.parse(readFileSync(file, "utf8")) as BenchReport;
/** The run's page, whose artifacts hold the measure job's folder (GITHUB_RUN_ID of run-action.ts). */
const ARTIFACTS = /\(https:\/\/github\.com\/[^/]+\/[^/]+\/actions\/runs\/4242424242#artifacts\)/u;

/**
 * The report job's Where is the measure job's, marked, on exactly the regressions the report job
 * confirms itself, and on nothing else: plumbing, whichever benchmarks a busy machine confirms.
 */
function expectWhereCarried(ours: BenchReport, theirs: BenchReport): void {
  for (const entry of ours.benchmarks) {
    const where = theirs.benchmarks.find(
      (t) => t.suite === entry.suite && t.id === entry.id,
    )?.where;
    const confirmed = entry.verdict === "regressed" && entry.secondary !== true;
    expect(entry.where, `${entry.suite} ${entry.id}`).toEqual(
      confirmed && where !== undefined ? { ...where, from_measure_job: true } : undefined,
    );
  }
}

describe("mode: measure, then mode: report", { timeout: LONG }, () => {
  it("measure runs the change with no API call and succeeds whatever the verdict", async () => {
    const r = await runAction({
      server,
      workspace: repo.dir,
      dir: path.join(scratch, "measure"),
      eventName: pullRequestEvent.eventName,
      payload: pullRequestEvent.payload(),
      // The action must not need the token in this mode: the job that runs PR code has none.
      inputs: {
        mode: "measure",
        config: CONFIG,
        out: path.join(scratch, "measure/out"),
        "github-token": "",
      },
    });
    expect(r.status, r.said).toBe(0);
    expect(r.requests, r.said).toEqual([]);
    expect(r.outputs["verdict"]).toBe("fail");
    measured = path.join(scratch, "measure/out");
    const names = readFileSync(path.join(measured, "report.json"), "utf8");
    expect((JSON.parse(names) as BenchReport).golden.map((g) => [g.name, g.ok])).toEqual([
      ["cli-help", false],
      ["cli-stats", true],
    ]);
    expect(r.summary).toMatch(/benchgate: fail/u);
  });

  it("report decides from the summaries with the base commit's config: one comment, one check, the step fails after them", async () => {
    const r = await report("report", {
      results: artifact("report"),
      "measure-result": "success",
    });
    expect(r.status, r.said).toBe(1);
    expect(r.outputs["verdict"]).toBe("fail");
    const ours = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as BenchReport;
    expect(r.outputs["report-path"]).toBe(path.join(scratch, "report/out/report.json"));
    // Recomputed, not copied: the base config's 3 % threshold, not the change's 1000 %.
    expect(ours.settings.fail_threshold).toBe(0.03);
    expect(ours.benchmarks.find((b) => b.id === "normalize")?.verdict, r.said).toBe("regressed");
    expect(ours.golden.map((g) => g.ok)).toEqual([false, true]);
    expect(operations(r)).toEqual([
      ["GET", "issues/list-comments"], // acceptance records
      ["GET", "issues/list-comments"], // the sticky comment
      ["POST", "issues/create-comment"],
      ["POST", "checks/create"],
      ["PATCH", "checks/update"],
    ]);
    expect(sticky()).toHaveLength(1);
    expect(sticky()[0]!.body).toBe(r.outputs["markdown"]);
    expect(checks().map((c) => [c.status, c.conclusion, c.output.title])).toEqual([
      ["completed", "failure", "fail"],
    ]);
    expect(r.commands.at(-1)?.message).toMatch(/^benchgate: the gate failed \(fail\)/);
    // The measure job's Where, carried as it wrote it; its files in the run's artifacts.
    expectWhereCarried(ours, readReport(path.join(measured, "report.json")));
    expect(sticky()[0]!.body).toMatch(ARTIFACTS);
    if (ours.benchmarks.some((e) => e.where?.diff !== undefined))
      expect(sticky()[0]!.body).toContain(
        "Profiled by the measure job, from the pull request's code; shown as that job wrote it.",
      );
  });

  it("report shows the measure job's Where only on the regressions it confirms itself, marked", async () => {
    const planted = "Where could not be computed: planted in the artifact";
    let theirs: BenchReport | undefined;
    const r = await report("where", {
      // Every entry of the measure job's report has a Where, and one entry was never measured.
      results: artifact("where", (dir) => {
        const file = path.join(dir, "report.json");
        const doc = readReport(file);
        const never = { ...doc.benchmarks[0]!, id: "never-measured", suite: "nowhere" };
        theirs = {
          ...doc,
          benchmarks: [...doc.benchmarks, never].map((e) => ({ ...e, where: { note: planted } })),
        };
        writeFileSync(file, JSON.stringify(theirs));
      }),
      "measure-result": "success",
    });
    expect(r.status, r.said).toBe(1);
    const ours = readReport(r.outputs["report-path"] ?? "");
    expect(ours.benchmarks.map((e) => e.id)).not.toContain("never-measured");
    expectWhereCarried(ours, theirs!);
    const confirmed = ours.benchmarks.filter((e) => e.where !== undefined).length;
    const body = sticky()[0]!.body;
    expect(body.split(`${planted} (from the measure job)`)).toHaveLength(confirmed + 1);
    expect(body).toMatch(ARTIFACTS);
  });

  it("a measure job that failed is a failed check and an error comment, never a pass; a cancelled one leaves the comment alone", async () => {
    const before = checks().length;
    const failed = await report("measure-failed", {
      results: path.join(scratch, "nothing-downloaded"),
      "measure-result": "failure",
    });
    expect(failed.status, failed.said).toBe(1);
    expect(failed.outputs["verdict"]).toBe("error");
    expect(sticky()[0]!.body).toMatch(/### benchgate: error[\s\S]*the measure job failed/);
    const stickyAfterFailure = sticky()[0]!.body;

    const cancelled = await report("measure-cancelled", {
      results: path.join(scratch, "nothing-downloaded"),
      "measure-result": "cancelled",
    });
    expect(cancelled.status, cancelled.said).toBe(1);
    expect(operations(cancelled)).toEqual([
      ["POST", "checks/create"],
      ["PATCH", "checks/update"],
    ]);
    expect(sticky()[0]!.body).toBe(stickyAfterFailure);
    expect(
      checks()
        .slice(before)
        .map((c) => [c.conclusion, c.output.title]),
    ).toEqual([
      ["failure", "error"],
      ["failure", "error"],
    ]);
  });

  it("refuses a tampered or missing artifact with an error check naming the file", async () => {
    const headRound1 = (dir: string) => path.join(dir, "summaries/head-1.json");
    const cases: [string, (dir: string) => void, RegExp][] = [
      [
        "another commit",
        (dir) => {
          const file = headRound1(dir);
          const text = readFileSync(file, "utf8").replaceAll(repo.head, "f".repeat(40));
          writeFileSync(file, text);
        },
        /head-1\.json: records commit f{40}, but this report is for head [0-9a-f]{40}/,
      ],
      [
        "renamed round",
        (dir) => cpSync(headRound1(dir), path.join(dir, "summaries/head-2.json")),
        /head-2\.json: says it is head round 1, but its name says head round 2/,
      ],
      [
        "a round left out",
        (dir) => rmSync(path.join(dir, "summaries/head-3.json")),
        /summaries: expected head rounds 1 to 3; missing 3/,
      ],
      [
        "a round added",
        (dir) => cpSync(headRound1(dir), path.join(dir, "summaries/base-4.json")),
        /summaries: expected base rounds 1 to 3; unexpected 4/,
      ],
      [
        "a symlink",
        (dir) => {
          rmSync(headRound1(dir));
          symlinkSync("/etc/passwd", headRound1(dir));
        },
        /head-1\.json/,
      ],
      ["not JSON", (dir) => writeFileSync(headRound1(dir), "{".repeat(100_000)), /head-1\.json/],
      [
        "a golden result left out",
        (dir) => {
          const file = path.join(dir, "report.json");
          const doc = JSON.parse(readFileSync(file, "utf8")) as BenchReport;
          writeFileSync(
            file,
            JSON.stringify({ ...doc, golden: doc.golden.filter((g) => g.name !== "cli-help") }),
          );
        },
        /golden results for \[cli-stats\], but the base config names \[cli-help, cli-stats\]/,
      ],
      [
        "a malformed where",
        (dir) => {
          const file = path.join(dir, "report.json");
          const doc = readReport(file);
          const files = {
            base: "../../etc/passwd",
            head: "where/1-head.callgrind",
            flame_diff: "where/1-flame-diff.svg",
          };
          const [first, ...rest] = doc.benchmarks;
          writeFileSync(
            file,
            JSON.stringify({ ...doc, benchmarks: [{ ...first, where: { files } }, ...rest] }),
          );
        },
        /report\.json: \/benchmarks\/0\/where\/files\/base: not a valid report\.v1/,
      ],
      [
        "no summaries",
        (dir) => rmSync(path.join(dir, "summaries"), { recursive: true }),
        /no summaries\/ folder/,
      ],
    ];
    for (const [name, tamper, message] of cases) {
      const slug = name.replaceAll(" ", "-");
      const before = checks().length;
      const r = await report(`tampered-${slug}`, {
        results: artifact(slug, tamper),
        "measure-result": "success",
      });
      expect(r.status, `${name}: ${r.said}`).toBe(1);
      expect(r.outputs["verdict"], name).toBe("error");
      expect(r.commands.at(-1)?.message, name).toMatch(message);
      const added = checks().slice(before);
      expect(
        added.map((c) => [c.conclusion, c.output.title]),
        name,
      ).toEqual([["failure", "error"]]);
      expect(added[0]!.output.summary, name).toMatch(message);
    }
  });

  it("a /rebench report takes its target from the authorizer's outputs and answers the command", async () => {
    const asked = server.seedComment({ issue_number: PR, user: "alice", body: "/rebench" });
    const r = await report(
      "rebench",
      {
        results: artifact("rebench"),
        "measure-result": "success",
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
          repository: REPOSITORY,
        }),
      },
    );
    expect(r.status, r.said).toBe(1);
    expect(operations(r).at(-1)).toEqual(["POST", "reactions/create-for-issue-comment"]);
    expect(
      server.state.reactions.filter((x) => x.comment_id === asked.id).map((x) => x.content),
    ).toEqual(["-1"]);
    expect(sticky()).toHaveLength(1);
    expect(sticky()[0]!.body).toMatch(/benchgate: fail/u);
  });

  it("on a push, report also records the commit in the gh-pages history, after the verdict", async () => {
    const pages = path.join(scratch, "pages.git");
    git(scratch, ["init", "--quiet", "--bare", pages]);
    const event = {
      eventName: "push",
      // The webhook example's repository has master as its default branch.
      payload: push({
        ref: "refs/heads/master",
        before: repo.base,
        after: repo.head,
        repository: REPOSITORY,
      }) as unknown,
    };
    const r = await runAction({
      server,
      workspace: repo.dir,
      dir: path.join(scratch, "history"),
      eventName: event.eventName,
      payload: event.payload,
      inputs: {
        mode: "report",
        config: CONFIG,
        out: path.join(scratch, "history/out"),
        results: artifact("history"),
        "measure-result": "success",
        "base-sha": repo.base,
        "head-sha": repo.head,
        "history-branch": "gh-pages",
        "history-remote": pages,
      },
    });
    // The gate failed (normalize ×3), and the history still has the commit.
    expect(r.status, r.said).toBe(1);
    expect(r.outputs["verdict"]).toBe("fail");
    expect(
      r.commands
        .filter((c) => c.name === "error" && c.properties["title"] === undefined)
        .map((c) => c.message),
      r.said,
    ).toEqual([expect.stringMatching(/^benchgate: the gate failed \(fail\)/)]);
    const stored = JSON.parse(
      git(scratch, ["--git-dir", pages, "show", "gh-pages:benchgate/history.json"]),
    ) as { commits: { sha: string; verdict?: string }[]; series: { id: string }[] };
    expect(stored.commits.map((c) => [c.sha, c.verdict])).toEqual([[repo.head, "fail"]]);
    expect(stored.series.map((x) => x.id)).toContain("normalize");
    // The check run was completed before anything was pushed.
    expect(operations(r).at(-1)).toEqual(["PATCH", "checks/update"]);
    expect(r.stdout).toMatch(/recorded [0-9a-f]{40} in /);
  });
});

describe("a measure matrix of two shards, then one report", { timeout: LONG }, () => {
  /** The downloaded artifacts: results/shard-1 and results/shard-2, as the report job has them. */
  let results: string;

  it("each measure job measures its shard only, with no API call and no verdict", async () => {
    results = path.join(scratch, "matrix-results");
    for (const i of [1, 2]) {
      const r = await runAction({
        server,
        workspace: repo.dir,
        dir: path.join(scratch, `matrix-${i}`),
        eventName: pullRequestEvent.eventName,
        payload: pullRequestEvent.payload(),
        inputs: {
          mode: "measure",
          config: CONFIG,
          out: path.join(results, `shard-${i}`),
          "github-token": "",
          shard: `${i}/2`,
        },
      });
      expect(r.status, r.said).toBe(0);
      expect(r.requests, r.said).toEqual([]);
      expect(r.outputs["verdict"]).toBeUndefined();
      expect(r.summary).toMatch(
        new RegExp(`benchgate: shard ${i}/2: \\d+ benchmarks? measured in 3 rounds`),
      );
      const shard = JSON.parse(
        readFileSync(path.join(results, `shard-${i}/shard.json`), "utf8"),
      ) as {
        index: number;
        golden: unknown[];
      };
      expect(shard.index).toBe(i);
      expect(shard.golden).toHaveLength(i === 1 ? 2 : 0);
    }
  });

  it("the report job merges every shard and decides once, with the base commit's config", async () => {
    const r = await report("matrix-report", {
      results,
      shards: "2",
      "measure-result": "success",
    });
    expect(r.status, r.said).toBe(1);
    const ours = JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as BenchReport;
    expect(ours.settings.fail_threshold).toBe(0.03);
    expect(ours.benchmarks.find((b) => b.id === "normalize")?.verdict, r.said).toBe("regressed");
    expect(ours.benchmarks.map((b) => b.id).sort()).toEqual([
      "checksum/fnv1a",
      "help",
      "normalize",
    ]);
    expect(ours.shards?.map((s) => s.index)).toEqual([1, 2]);
    expect(ours.golden.map((g) => g.ok)).toEqual([false, true]);
    expect(sticky()[0]!.body).toMatch(/### Shards — 2 machines/);
  });

  it("a shard whose folder is missing is an error verdict, never a pass on the other", async () => {
    const partial = path.join(scratch, "matrix-partial");
    cpSync(path.join(results, "shard-1"), path.join(partial, "shard-1"), { recursive: true });
    const r = await report("matrix-missing", {
      results: partial,
      shards: "2",
      "measure-result": "success",
    });
    expect(r.status, r.said).toBe(1);
    expect(r.outputs["verdict"]).toBe("error");
    expect(r.commands.at(-1)?.message).toMatch(/shard-2: no shard\.json/);
  });
});
