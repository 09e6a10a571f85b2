// `benchgate history append` against a local bare repository with the real git: the CAS loop
// under 20 racing writers, first run, re-runs, a corrupt history, the guard, retention,
// interrupts and giving up (docs/threat-model.md, H1–H6). Commands run in-process through main() with
// the real Node side effects, so many of them can race inside one test.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.ts";
import type { Machine } from "../src/ports/machine.ts";
import { nodeMachine } from "../src/io/node-machine.ts";
import { InputError } from "../src/errors.ts";
import { writePagesHistory, type PagesWriterDeps } from "../src/history/pages-writer.ts";
import { nodeDirs } from "../src/io/node-dirs.ts";
import { nodeFileWriter } from "../src/io/node-files.ts";
import { nodeProcess } from "../src/io/node-process.ts";
import type { ProcessPort } from "../src/ports/process.ts";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import { validateHistory } from "../src/schemas/validate-document.ts";
import { cleanEnv, commitAll, git } from "./support/git-repo.ts";
import { makeEntry, makeReport } from "./support/report-factory.ts";
import { syntheticHistory } from "./support/synthetic-history.ts";
import { serializeHistory } from "../src/history/history-json.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-history-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
function fresh(name: string): string {
  counter += 1;
  return path.join(scratch, `${name}-${counter}`);
}

const PUSH_ENV = {
  GITHUB_EVENT_NAME: "push",
  GITHUB_REF: "refs/heads/main",
  GITHUB_REPOSITORY: "owner/repo",
};

/** What a run outside GitHub Actions states about itself. */
const LOCAL_PUSH = ["--event", "push", "--ref", "main", "--default-branch", "main"] as const;

function bareRemote(): string {
  const dir = fresh("remote");
  mkdirSync(dir);
  git(dir, ["init", "--quiet", "--bare"]);
  // Bare repositories keep no reflog unless asked; the race test reads it.
  git(dir, ["config", "core.logAllRefUpdates", "always"]);
  return dir;
}

/** Distinct in their first 12 digits, as real SHAs are. */
function sha(n: number): string {
  return (0xabc000 + n).toString(16) + "0".repeat(34);
}

function reportFile(value = 100): string {
  const file = fresh("report") + ".json";
  const report = makeReport({
    benchmarks: [
      makeEntry({
        id: "parse/small",
        head: { value, per_round: [value - 2, value, value + 3, value - 1, value + 1] },
      }),
      makeEntry({ id: "parse/large", head: { value: value * 10, per_round: [value * 10] } }),
    ],
  });
  writeFileSync(file, JSON.stringify(report));
  return file;
}

/** The event payload GitHub writes for a push to main. */
function pushEvent(): string {
  const file = fresh("event") + ".json";
  writeFileSync(
    file,
    JSON.stringify({
      ref: "refs/heads/main",
      repository: { full_name: "owner/repo", default_branch: "main", fork: false },
    }),
  );
  return file;
}

interface Run {
  readonly status: number;
  readonly out: string;
  readonly err: string;
}

interface RunOptions {
  readonly env?: Record<string, string>;
  readonly proc?: ProcessPort;
  readonly signal?: AbortSignal;
  readonly onErr?: (text: string) => void;
  readonly temps?: string[];
  readonly now?: Date;
}

/** Every argv git ran, across all tests: none may ever force. */
const gitCalls: string[][] = [];
const recordingProc: ProcessPort = (argv, options) => {
  if (argv[0] === "git") gitCalls.push([...argv]);
  return nodeProcess(argv, options);
};

async function cli(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  let out = "";
  let err = "";
  const machine = nodeMachine();
  const deps: Machine = {
    ...machine,
    out: (t) => (out += t),
    err: (t) => {
      err += t;
      options.onErr?.(t);
    },
    clock: { ...machine.clock, date: () => options.now ?? new Date() },
    proc: options.proc ?? recordingProc,
    env: { ...cleanEnv(), ...(options.env ?? {}) },
    cwd: scratch,
    dirs: {
      ...nodeDirs,
      makeTemp: async (prefix) => {
        const dir = await nodeDirs.makeTemp(prefix);
        options.temps?.push(dir);
        return dir;
      },
    },
    interrupts: () => ({
      signal: options.signal ?? new AbortController().signal,
      dispose: () => undefined,
    }),
  };
  const status = await main(args, deps);
  return { status, out, err };
}

function appendArgs(
  remote: string,
  n: number,
  extra: readonly string[] = [],
  value = 100 + n,
): string[] {
  return [
    "history",
    "append",
    "--report",
    reportFile(value),
    "--remote",
    remote,
    "--sha",
    sha(n),
    "--message",
    `commit ${n}\n\nbody`,
    "--author",
    "Ada",
    "--date",
    "2025-01-02T03:04:05Z",
    ...extra,
  ];
}

function pushEnv(): Record<string, string> {
  return { ...PUSH_ENV, GITHUB_EVENT_PATH: pushEvent() };
}

function tip(remote: string, branch = "gh-pages"): string | undefined {
  const out = git(remote, [
    "for-each-ref",
    "--format=%(objectname)",
    `refs/heads/${branch}`,
  ]).trim();
  return out === "" ? undefined : out;
}

function historyAt(
  remote: string,
  rev = "gh-pages",
  file = "benchgate/history.json",
): BenchHistory {
  return validateHistory(JSON.parse(git(remote, ["show", `${rev}:${file}`])), file);
}

/** A clone of the remote's gh-pages in which a test can commit what it likes. */
function workClone(remote: string): string {
  const dir = fresh("work");
  mkdirSync(dir);
  git(dir, ["init", "--quiet"]);
  if (tip(remote) !== undefined) {
    git(dir, ["fetch", "--quiet", remote, "gh-pages"]);
    git(dir, ["checkout", "--quiet", "-B", "gh-pages", "FETCH_HEAD"]);
  } else git(dir, ["checkout", "--quiet", "--orphan", "gh-pages"]);
  return dir;
}

function pushWork(dir: string, remote: string): void {
  git(dir, ["push", "--quiet", remote, "HEAD:refs/heads/gh-pages"]);
}

/** Contexts that may not write history: label, environment, extra flags, the refusal. */
function contextsThatMayNotWrite(): [string, Record<string, string>, string[], RegExp][] {
  const forkPr = fresh("pr-event") + ".json";
  writeFileSync(
    forkPr,
    JSON.stringify({
      pull_request: {
        head: { ref: "main", repo: { full_name: "evil/fork" } },
        base: { ref: "main", repo: { full_name: "owner/repo" } },
      },
      repository: { full_name: "owner/repo", default_branch: "main" },
    }),
  );
  return [
    [
      "fork PR from a branch named main",
      {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_REF: "refs/pull/7/merge",
        GITHUB_HEAD_REF: "main",
        GITHUB_REPOSITORY: "owner/repo",
        GITHUB_EVENT_PATH: forkPr,
      },
      [],
      /"pull_request" event may not write history/,
    ],
    [
      "pull_request_target",
      {
        GITHUB_EVENT_NAME: "pull_request_target",
        GITHUB_REF: "refs/heads/main",
        GITHUB_REPOSITORY: "owner/repo",
        GITHUB_EVENT_PATH: forkPr,
      },
      [],
      /"pull_request_target" event/,
    ],
    [
      "a PR posing as a push",
      {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_REF: "refs/pull/7/merge",
        GITHUB_EVENT_PATH: forkPr,
      },
      ["--event", "push", "--ref", "main"],
      /contradicts GITHUB_EVENT_NAME/,
    ],
    [
      "another branch",
      { ...PUSH_ENV, GITHUB_REF: "refs/heads/feature", GITHUB_EVENT_PATH: pushEvent() },
      [],
      /"refs\/heads\/feature" is not the default branch refs\/heads\/main/,
    ],
    [
      "code from a fork",
      { ...PUSH_ENV, GITHUB_EVENT_PATH: pushEvent() },
      ["--head-repository", "evil/fork"],
      /contradicts the event payload/,
    ],
    [
      "the workflow in a fork",
      { ...PUSH_ENV, GITHUB_REPOSITORY: "someone/repo" },
      ["--default-branch", "main", "--repository", "owner/repo"],
      /not in "owner\/repo" \(a fork\?\)/,
    ],
    [
      "a local run with a fork's branch named main",
      {},
      [...LOCAL_PUSH, "--head-repository", "evil/fork", "--repository", "owner/repo"],
      /unknown, so it cannot be "owner\/repo"/,
    ],
    ["no context at all", {}, [], /cannot tell which event and ref/],
  ];
}

describe("history append", { timeout: 240_000 }, () => {
  it("initialises the branch on the first run (H4), then appends", async () => {
    const remote = bareRemote();
    const first = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(first.err).toContain("attempt 1/8: pushing");
    expect(first.status).toBe(0);
    expect(first.out).toMatch(
      /^recorded abc0010{34} in .* gh-pages:benchgate\/history.json as [0-9a-f]{12} \(new record; 1 commits, 2 series\)\n$/,
    );
    const root = tip(remote) as string;
    expect(git(remote, ["rev-list", "--parents", "-n", "1", root]).trim()).toBe(root); // an orphan
    expect(git(remote, ["log", "-1", "--format=%an <%ae>|%s", root]).trim()).toBe(
      "benchgate <benchgate@users.noreply.github.com>|benchgate: history for abc001000000 commit 1",
    );
    const h = historyAt(remote);
    expect(h.commits).toHaveLength(1);
    expect(h.commits[0]).toMatchObject({
      sha: sha(1),
      message: "commit 1",
      author: "Ada",
      ref: "refs/heads/main",
      rounds: 5,
    });
    expect(h.series.map((s) => s.id)).toEqual(["parse/small", "parse/large"]);
    // Five rounds: [min, max]; one round: no interval.
    expect(h.commits[0]?.results).toEqual([
      [0, 101, 99, 104, null],
      [1, 1010, null, null, null],
    ]);

    expect((await cli(appendArgs(remote, 2), { env: pushEnv() })).status).toBe(0);
    expect(historyAt(remote).commits.map((c) => c.sha)).toEqual([sha(1), sha(2)]);
    expect(git(remote, ["rev-parse", "gh-pages~1"]).trim()).toBe(root);
  });

  it("is idempotent for a re-run of the same SHA (H3)", async () => {
    const remote = bareRemote();
    const now = new Date("2025-06-01T00:00:00Z");
    expect((await cli(appendArgs(remote, 1), { env: pushEnv(), now })).status).toBe(0);
    expect((await cli(appendArgs(remote, 2), { env: pushEnv(), now })).status).toBe(0);
    const before = tip(remote);
    const same = await cli(appendArgs(remote, 1), { env: pushEnv(), now });
    expect(same.status).toBe(0);
    expect(same.out).toContain("is already recorded");
    expect(tip(remote)).toBe(before);

    const rerun = await cli(appendArgs(remote, 1, [], 500), {
      env: pushEnv(),
      now: new Date("2025-06-02T00:00:00Z"),
    });
    expect(rerun.status).toBe(0);
    expect(rerun.out).toContain("replaced its earlier record; 2 commits");
    const h = historyAt(remote);
    expect(h.commits.map((c) => c.sha)).toEqual([sha(1), sha(2)]);
    expect(h.commits[0]?.results[0]?.[1]).toBe(500);
    expect(h.commits[0]?.recorded_at).toBe("2025-06-02T00:00:00.000Z");
  });

  it("keeps every record exactly once when 20 writers race, each update a fast-forward (H2)", async () => {
    const remote = bareRemote();
    const writers = Array.from({ length: 20 }, (_, i) =>
      cli(appendArgs(remote, i + 1, ["--attempts", "60"]), { env: pushEnv() }),
    );
    const runs = await Promise.all(writers);
    for (const r of runs) expect(r.err + r.out).toMatch(/^recorded /m);
    expect(runs.map((r) => r.status)).toEqual(Array(20).fill(0));
    // The race happened: some writers had to retry.
    expect(runs.some((r) => r.err.includes("attempt 2/60"))).toBe(true);

    const h = historyAt(remote);
    expect([...h.commits.map((c) => c.sha)].sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => sha(i + 1)).sort(),
    );
    expect(h.series).toHaveLength(2);

    // Every update of the branch was a fast-forward: each new tip descends from the old one,
    // so one linear chain of 20 commits holds every earlier state.
    const reflog = readFileSync(path.join(remote, "logs/refs/heads/gh-pages"), "utf8")
      .trim()
      .split("\n");
    expect(reflog).toHaveLength(20);
    for (const line of reflog) {
      const [oldSha, newSha] = line.split(" ") as [string, string];
      if (/^0+$/.test(oldSha)) continue;
      git(remote, ["merge-base", "--is-ancestor", oldSha, newSha]); // throws unless an ancestor
    }
    expect(git(remote, ["rev-list", "--count", "gh-pages"]).trim()).toBe("20");
    expect(git(remote, ["rev-list", "--count", "--merges", "gh-pages"]).trim()).toBe("0");
    // Each gh-pages commit holds every record of its parent.
    const chain = git(remote, ["rev-list", "--reverse", "gh-pages"]).trim().split("\n");
    let previous = new Set<string>();
    for (const commit of chain) {
      const shas = new Set(historyAt(remote, commit).commits.map((c) => c.sha));
      for (const s of previous) expect(shas.has(s)).toBe(true);
      expect(shas.size).toBe(previous.size + 1);
      previous = shas;
    }
  });

  it("leaves data.js out with a warning once it would pass the per-file cap, and keeps appending", async () => {
    const remote = bareRemote();
    const work = workClone(remote);
    mkdirSync(path.join(work, "benchgate"));
    // 200 benchmarks × 1,300 commits: history.json ~12 MiB, gab's verbose data.js > 64 MiB.
    const big = syntheticHistory({ benchmarks: 200, commits: 1300, seed: 7 });
    writeFileSync(path.join(work, "benchgate/history.json"), serializeHistory(big));
    commitAll(work, "a long history");
    pushWork(work, remote);

    const r = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(r.status, r.err).toBe(0);
    expect(r.err).toMatch(
      /warning: data\.js would be \d+ bytes \(over 67108864\); not written this time/,
    );
    const files = git(remote, ["ls-tree", "--name-only", "gh-pages", "benchgate/"]).split("\n");
    expect(files).toContain("benchgate/history.json");
    expect(files).toContain("benchgate/index.html");
    expect(files).not.toContain("benchgate/data.js");
    expect(r.out).toMatch(/\(new record; 1301 commits, 202 series\)/);
  });

  it("refuses to replace github-action-benchmark's data.js (or anyone's page) when there is no history.json yet", async () => {
    const remote = bareRemote();
    const work = workClone(remote);
    mkdirSync(path.join(work, "dev/bench"), { recursive: true });
    writeFileSync(path.join(work, "dev/bench/data.js"), "window.BENCHMARK_DATA = {}");
    commitAll(work, "github-action-benchmark's history");
    pushWork(work, remote);
    const before = tip(remote);
    const r = await cli(appendArgs(remote, 1, ["--dir", "dev/bench"]), { env: pushEnv() });
    expect(r.status).toBe(2);
    expect(r.err).toMatch(
      /gh-pages has dev\/bench\/data\.js but no dev\/bench\/history\.json: benchgate would replace files it did not write\. Import github-action-benchmark's history first/,
    );
    expect(tip(remote)).toBe(before);
  });

  it("stops on a corrupt or invalid history.json and writes nothing (H4)", async () => {
    const remote = bareRemote();
    const work = workClone(remote);
    mkdirSync(path.join(work, "benchgate"));
    writeFileSync(path.join(work, "benchgate/history.json"), "{ not json");
    writeFileSync(path.join(work, "index.html"), "<p>the user's own page</p>");
    commitAll(work, "a broken history");
    pushWork(work, remote);
    const before = tip(remote);

    const broken = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(broken.status).toBe(2);
    const line = broken.err.trim().split("\n").pop() ?? "";
    expect(line).toMatch(
      /^benchgate: error: gh-pages:benchgate\/history.json: invalid JSON .*never replaces a history it cannot read/,
    );
    expect(tip(remote)).toBe(before);

    writeFileSync(
      path.join(work, "benchgate/history.json"),
      JSON.stringify({
        schema_version: 1,
        series: [],
        commits: [
          {
            sha: "nope",
            date: "2025-01-01T00:00:00Z",
            message: "",
            author: "",
            recorded_at: "2025-01-01T00:00:00Z",
            results: [],
          },
        ],
      }),
    );
    commitAll(work, "an invalid history");
    pushWork(work, remote);
    const invalidTip = tip(remote);
    const invalid = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(invalid.status).toBe(2);
    expect(invalid.err).toMatch(
      /benchgate: error: gh-pages:benchgate\/history.json: \/commits\/0\/sha: /,
    );
    expect(tip(remote)).toBe(invalidTip);

    // A symlink in place of the file is refused too, never followed.
    rmSync(path.join(work, "benchgate/history.json"));
    symlinkSync("/etc/passwd", path.join(work, "benchgate/history.json"));
    commitAll(work, "a symlink");
    pushWork(work, remote);
    const linkTip = tip(remote);
    const link = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(link.status).toBe(2);
    expect(link.err).toContain("is not a regular file");
    expect(tip(remote)).toBe(linkTip);

    // So is a file where the directory should be.
    git(work, ["rm", "--quiet", "-r", "benchgate"]);
    writeFileSync(path.join(work, "benchgate"), "not a directory");
    commitAll(work, "a file for the directory");
    pushWork(work, remote);
    const fileTip = tip(remote);
    const file = await cli(appendArgs(remote, 1), { env: pushEnv() });
    expect(file.status).toBe(2);
    expect(file.err).toMatch(/benchgate: error: gh-pages:benchgate: is not a directory/);
    expect(tip(remote)).toBe(fileTip);
  });

  it("refuses pull requests, forks and other branches before touching anything (H1)", async () => {
    const remote = bareRemote();
    const cases = contextsThatMayNotWrite();
    for (const [label, env, flags, message] of cases) {
      const r = await cli(appendArgs(remote, 1, flags), { env });
      expect(r.status, label).toBe(2);
      expect(r.err.trim().split("\n"), label).toHaveLength(1);
      expect(r.err, label).toMatch(message);
      expect(r.err, label).toMatch(/^benchgate: error: /);
    }
    expect(tip(remote)).toBeUndefined();
    // The same command from a push on main goes through.
    expect((await cli(appendArgs(remote, 1), { env: pushEnv() })).status).toBe(0);
    // So does a local run that states its context.
    expect((await cli(appendArgs(remote, 2, LOCAL_PUSH))).status).toBe(0);
  });

  it("keeps the newest records under --max-commits (H6)", async () => {
    const remote = bareRemote();
    for (let n = 1; n <= 5; n++) {
      const r = await cli(appendArgs(remote, n, ["--max-commits", "3"]), { env: pushEnv() });
      expect(r.status).toBe(0);
    }
    const h = historyAt(remote);
    expect(h.commits.map((c) => c.sha)).toEqual([sha(3), sha(4), sha(5)]);
    const last = await cli(appendArgs(remote, 6, ["--max-commits", "1"]), { env: pushEnv() });
    expect(last.out).toContain("retention dropped the 3 oldest");
    expect(historyAt(remote).commits.map((c) => c.sha)).toEqual([sha(6)]);
  });

  it("leaves the remote unchanged when interrupted before the push, and cleans up (H5)", async () => {
    const remote = bareRemote();
    expect((await cli(appendArgs(remote, 1), { env: pushEnv() })).status).toBe(0);
    const before = tip(remote);
    const controller = new AbortController();
    const temps: string[] = [];
    const r = await cli(appendArgs(remote, 2), {
      env: pushEnv(),
      signal: controller.signal,
      temps,
      // Ctrl-C lands after the commit is made, just before the push.
      onErr: (text) => {
        if (text.includes(": pushing ")) controller.abort();
      },
    });
    expect(r.status).toBe(3);
    expect(r.err).toContain("interrupted before the push; gh-pages is unchanged");
    expect(tip(remote)).toBe(before);
    expect(temps).toHaveLength(1);
    expect(existsSync(temps[0] as string)).toBe(false);
    // A re-run converges.
    expect((await cli(appendArgs(remote, 2), { env: pushEnv() })).status).toBe(0);
    expect(historyAt(remote).commits.map((c) => c.sha)).toEqual([sha(1), sha(2)]);
  });

  it("gives up with a clear error when the branch keeps moving, and never forces (H2)", async () => {
    const remote = bareRemote();
    expect((await cli(appendArgs(remote, 1), { env: pushEnv() })).status).toBe(0);
    const rival = workClone(remote);
    let rivals = 0;
    // Another writer lands a commit just before each of our pushes.
    const racing: ProcessPort = async (argv, options) => {
      if (argv.includes("push")) {
        rivals += 1;
        writeFileSync(path.join(rival, `rival-${rivals}.txt`), `${rivals}\n`);
        commitAll(rival, `rival ${rivals}`);
        pushWork(rival, remote);
      }
      return recordingProc(argv, options);
    };
    const r = await cli(appendArgs(remote, 2, ["--attempts", "3"]), {
      env: pushEnv(),
      proc: racing,
    });
    expect(r.status).toBe(3);
    expect(r.err).toMatch(/attempt 1\/3: gh-pages moved since we read it .*retrying in/);
    expect(r.err.trim().split("\n").pop()).toMatch(
      /^benchgate: error: could not update gh-pages of .*: it moved under us on each of 3 attempts \(nothing was forced/,
    );
    expect(rivals).toBe(3);
    // The rival's work is all there; ours is not.
    expect(git(remote, ["log", "-1", "--format=%s", "gh-pages"]).trim()).toBe("rival 3");
    expect(historyAt(remote).commits.map((c) => c.sha)).toEqual([sha(1)]);
  });

  it("reads the commit from a local clone with --repo, and the result validates", async () => {
    const remote = bareRemote();
    const project = fresh("project");
    mkdirSync(project);
    git(project, ["init", "--quiet"]);
    writeFileSync(path.join(project, "README"), "x\n");
    const head = commitAll(project, "make parsing faster\n\nthe details");
    const r = await cli([
      "history",
      "append",
      "--report",
      reportFile(),
      "--remote",
      path.relative(scratch, remote),
      "--repo",
      project,
      ...LOCAL_PUSH,
      "--dir",
      "dev/bench",
      "--branch",
      "pages",
    ]);
    expect(r.err).not.toContain("error");
    expect(r.status).toBe(0);
    // A second record finds the first in the nested directory.
    const second = await cli(
      appendArgs(remote, 7, [...LOCAL_PUSH, "--dir", "dev/bench", "--branch", "pages"]),
    );
    expect(second.status).toBe(0);
    const h = historyAt(remote, "pages", "dev/bench/history.json");
    expect(h.commits.map((c) => c.sha)).toEqual([head, sha(7)]);
    expect(h.commits[0]).toMatchObject({
      sha: head,
      message: "make parsing faster",
      author: "benchgate tests",
    });
    expect(h.commits[0]?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);

    const file = fresh("history") + ".json";
    writeFileSync(file, git(remote, ["show", "pages:dev/bench/history.json"]));
    const validated = await cli(["validate", "--schema", "history", file]);
    expect(validated.out).toBe(`${file}: valid history.v1 (2 commits, 2 series)\n`);
    expect(validated.status).toBe(0);
    expect((await cli(["validate", file])).out).toBe(validated.out); // guessed from "commits"
  });

  it("sends a token only in git's environment, never in argv or messages", async () => {
    const envs: Readonly<Record<string, string>>[] = [];
    const watching: ProcessPort = (argv, options) => {
      if (argv.includes("fetch") || argv.includes("ls-remote")) envs.push(options.env);
      return recordingProc(argv, options);
    };
    // Nothing listens on port 1: the fetch fails at once, after git was handed the header.
    const r = await cli(
      appendArgs("https://127.0.0.1:1/owner/repo.git", 1, ["--token-env", "PAGES_TOKEN"]),
      { env: { ...pushEnv(), PAGES_TOKEN: "s3cret-token" }, proc: watching },
    );
    expect(r.status).toBe(3);
    expect(r.err).toMatch(/cannot fetch gh-pages from https:\/\/127.0.0.1:1\/owner\/repo.git/);
    expect(r.err + r.out).not.toContain("s3cret");
    expect(envs.length).toBeGreaterThan(0);
    for (const env of envs)
      expect(env).toMatchObject({
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "http.https://127.0.0.1:1/.extraheader",
        GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${btoa("x-access-token:s3cret-token")}`,
      });
    for (const argv of gitCalls) expect(argv.join(" ")).not.toContain("s3cret");

    const unset = await cli(appendArgs(bareRemote(), 1, ["--token-env", "NOPE"]), {
      env: pushEnv(),
    });
    expect(unset.err).toMatch(/--token-env NOPE: that environment variable is not set/);
    const local = await cli(appendArgs(bareRemote(), 1, ["--token-env", "PAGES_TOKEN"]), {
      env: { ...pushEnv(), PAGES_TOKEN: "x" },
    });
    expect(local.err).toMatch(/only sent to an https:\/\/ remote/);
  });

  it("shows help for history and append, and rejects bad usage with exit 2", async () => {
    const help = await cli(["history", "--help"]);
    expect(help.status).toBe(0);
    expect(help.out).toContain("append    record a default-branch report.json");
    const appendHelp = await cli(["history", "append", "--help"]);
    expect(appendHelp.out).toContain("--max-commits N");
    expect((await cli(["history"])).status).toBe(2);
    expect((await cli(["history", "frobnicate"])).err).toMatch(
      /unknown history subcommand "frobnicate"/,
    );
    expect((await cli(["history", "append", "--report", "x.json"])).err).toMatch(
      /needs --report FILE and --remote/,
    );
    const remote = bareRemote();
    for (const [flags, message] of [
      [["--dir", "../escape"], /--dir "..\/escape" has a ".." part/],
      [["--branch", "-f"], /branch "-f" is not a valid branch name/],
      [["--max-commits", "0"], /--max-commits must be an integer in \[1, 100000\]/],
    ] as const) {
      const r = await cli(appendArgs(remote, 1, flags), { env: pushEnv() });
      expect(r.status).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect(tip(remote)).toBeUndefined();
  });
  it("never forces a push", () => {
    expect(gitCalls.filter((a) => a.includes("push")).length).toBeGreaterThan(20);
    for (const argv of gitCalls) {
      expect(argv.join(" ")).not.toMatch(/--force|--mirror|--delete|(^| )-f( |$)/);
      if (argv.includes("push"))
        for (const a of argv.slice(argv.indexOf("push"))) expect(a.startsWith("+")).toBe(false);
    }
  });
});

describe("writePagesHistory extra files", () => {
  function writerDeps(progress: string[]): PagesWriterDeps {
    return {
      proc: recordingProc,
      dirs: nodeDirs,
      writer: nodeFileWriter,
      env: cleanEnv(),
      progress: (l) => progress.push(l),
    };
  }
  const empty = (): BenchHistory => ({ schema_version: 1, series: [], commits: [] });

  it("writes the hook's files, text and bytes, next to history.json", async () => {
    const remote = bareRemote();
    const work = workClone(remote);
    writeFileSync(path.join(work, "index.html"), "<p>keep me</p>");
    commitAll(work, "the user's page");
    pushWork(work, remote);
    const bytes = new Uint8Array([0, 255, 10, 13, 128]);
    const progress: string[] = [];
    const result = await writePagesHistory(
      { remote, dir: "bench" },
      {
        transform: (current) => current ?? empty(),
        extraFiles: (history) =>
          new Map<string, string | Uint8Array>([
            ["data.js", `window.N = ${history.commits.length};\n`],
            ["img/dot.bin", bytes],
          ]),
        message: "test",
      },
      writerDeps(progress),
    );
    expect(result.status).toBe("pushed");
    expect(git(remote, ["show", "gh-pages:bench/data.js"])).toBe("window.N = 0;\n");
    expect(git(remote, ["show", "gh-pages:index.html"])).toBe("<p>keep me</p>");
    const file = fresh("dot") + ".bin";
    writeFileSync(file, bytes);
    expect(git(remote, ["rev-parse", "gh-pages:bench/img/dot.bin"]).trim()).toBe(
      git(remote, ["hash-object", "--no-filters", file]).trim(),
    );
    expect(progress.at(-1)).toMatch(/^pushed [0-9a-f]{40} to gh-pages of /);

    const again = await writePagesHistory(
      { remote, dir: "bench" },
      {
        transform: (current) => current ?? empty(),
        extraFiles: () =>
          new Map<string, string | Uint8Array>([
            ["data.js", "window.N = 0;\n"],
            ["img/dot.bin", bytes],
          ]),
        message: "test",
      },
      writerDeps([]),
    );
    expect(again).toMatchObject({ status: "unchanged", commit: result.commit });
  });

  it("a branch created by another first writer between our fetch and ls-remote is fetched, not an error", async () => {
    const remote = bareRemote();
    let created = false;
    const racing: ProcessPort = async (argv, options) => {
      if (!created && argv[0] === "git" && argv.includes("ls-remote")) {
        created = true; // the other writer's first push lands right now
        const work = workClone(remote);
        mkdirSync(path.join(work, "benchgate"));
        writeFileSync(path.join(work, "benchgate/history.json"), serializeHistory(empty()));
        commitAll(work, "the other first writer");
        pushWork(work, remote);
      }
      return recordingProc(argv, options);
    };
    const progress: string[] = [];
    const result = await writePagesHistory(
      { remote },
      { transform: (current) => current ?? empty(), message: "test" },
      { ...writerDeps(progress), proc: racing },
    );
    expect(created).toBe(true);
    // It read the other writer's history (identical to its own): nothing to push.
    expect(result.status).toBe("unchanged");
    expect(result.commit).toBe(tip(remote));
  });

  it("refuses an extra file outside the directory and pushes nothing", async () => {
    const remote = bareRemote();
    await expect(
      writePagesHistory(
        { remote },
        {
          transform: () => empty(),
          extraFiles: () => new Map([["../index.html", "x"]]),
          message: "test",
        },
        writerDeps([]),
      ),
    ).rejects.toThrow(InputError);
    expect(tip(remote)).toBeUndefined();
  });

  it("refuses a transform that produces an invalid history", async () => {
    const remote = bareRemote();
    const bad = {
      schema_version: 1,
      series: [],
      commits: [{ sha: "x" }],
    } as unknown as BenchHistory;
    await expect(
      writePagesHistory({ remote }, { transform: () => bad, message: "t" }, writerDeps([])),
    ).rejects.toMatchObject({ name: "InputError", source: "the new benchgate/history.json" });
    expect(tip(remote)).toBeUndefined();
  });

  it("fails clearly when the remote cannot be reached", async () => {
    await expect(
      writePagesHistory(
        { remote: path.join(scratch, "no-such-remote.git") },
        { transform: () => empty(), message: "t" },
        writerDeps([]),
      ),
    ).rejects.toThrow(/cannot fetch gh-pages from .*no-such-remote.git/);
  });
});
