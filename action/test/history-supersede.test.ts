// `benchgate history supersede` against a local bare repository with the real git: the mark
// lands on gh-pages in one compare-and-swap commit with the page rebuilt, is idempotent, survives
// later appends, and refuses (writing nothing) a commit the history does not have, a glob that
// matches nothing, a missing history and a pull request's workflow; the local-file mode and
// --list. Commands run in-process through main() with the real Node side effects.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.ts";
import { serializeHistory } from "../src/history/history-json.ts";
import { nodeMachine } from "../src/io/node-machine.ts";
import type { Machine } from "../src/ports/machine.ts";
import type { ProcessPort } from "../src/ports/process.ts";
import { nodeProcess } from "../src/io/node-process.ts";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import { validateHistory } from "../src/schemas/validate-document.ts";
import type { PageModel } from "../src/site/page-model.ts";
import { cleanEnv, git } from "./support/git-repo.ts";
import { makeEntry, makeReport } from "./support/report-factory.ts";
import { syntheticHistory } from "./support/synthetic-history.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-supersede-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
function fresh(name: string): string {
  counter += 1;
  return path.join(scratch, `${name}-${counter}`);
}

/** What a run outside GitHub Actions states about itself to `history append`. */
const LOCAL_PUSH = ["--event", "push", "--ref", "main", "--default-branch", "main"];

const gitCalls: string[][] = [];
const recordingProc: ProcessPort = (argv, options) => {
  if (argv[0] === "git") gitCalls.push([...argv]);
  return nodeProcess(argv, options);
};

interface Run {
  readonly status: number;
  readonly out: string;
  readonly err: string;
}

async function cli(
  args: readonly string[],
  env: Record<string, string> = {},
  now = new Date("2026-03-01T12:00:00Z"),
): Promise<Run> {
  let out = "";
  let err = "";
  const machine = nodeMachine();
  const deps: Machine = {
    ...machine,
    out: (t) => (out += t),
    err: (t) => (err += t),
    clock: { ...machine.clock, date: () => now },
    proc: recordingProc,
    env: { ...cleanEnv(), ...env },
    cwd: scratch,
    interrupts: () => ({ signal: new AbortController().signal, dispose: () => undefined }),
  };
  const status = await main(args, deps);
  return { status, out, err };
}

function bareRemote(): string {
  const dir = fresh("remote");
  mkdirSync(dir);
  git(dir, ["init", "--quiet", "--bare"]);
  return dir;
}

function sha(n: number): string {
  return (0xabc000 + n).toString(16) + "0".repeat(34);
}

/** A report of commit n: parse/small and parse/large, the new harness reading 3× from commit 3. */
function reportFile(n: number): string {
  const file = fresh("report") + ".json";
  const value = (n >= 3 ? 300 : 100) + n;
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

async function append(remote: string, n: number): Promise<void> {
  const run = await cli([
    "history",
    "append",
    "--report",
    reportFile(n),
    "--remote",
    remote,
    "--sha",
    sha(n),
    "--message",
    `commit ${n}`,
    "--author",
    "Ada",
    "--date",
    `2026-01-0${n}T03:04:05Z`,
    ...LOCAL_PUSH,
  ]);
  expect(run.status, run.err).toBe(0);
}

function tip(remote: string): string | undefined {
  const out = git(remote, ["for-each-ref", "--format=%(objectname)", "refs/heads/gh-pages"]).trim();
  return out === "" ? undefined : out;
}

function historyAt(remote: string, rev = "gh-pages"): BenchHistory {
  const file = "benchgate/history.json";
  return validateHistory(JSON.parse(git(remote, ["show", `${rev}:${file}`])), file);
}

/** The page's data at a revision of the branch, as the browser gets it. */
function pageModelAt(remote: string, rev = "gh-pages"): PageModel {
  const script = git(remote, ["show", `${rev}:benchgate/benchgate-data.js`]);
  // "window.BENCHGATE_DATA = {…};\n": JSON between the assignment and the semicolon.
  return JSON.parse(script.slice("window.BENCHGATE_DATA = ".length, -2)) as PageModel;
}

const REASON = 'criterion 0.6: a new harness <b>& "loop"</b>';

function supersedeArgs(remote: string, glob: string, from: string): string[] {
  return ["history", "supersede", glob, "--from", from, "--reason", REASON, "--remote", remote];
}

describe("history supersede on gh-pages", { timeout: 240_000 }, () => {
  it("marks a new baseline in one commit with the page, keeps every record, and is idempotent", async () => {
    const remote = bareRemote();
    for (const n of [1, 2, 3, 4]) await append(remote, n);
    const before = historyAt(remote);
    const parent = tip(remote) as string;

    const run = await cli(supersedeArgs(remote, "parse/*", sha(3).slice(0, 9).toUpperCase()));
    expect(run.status, run.err).toBe(0);
    expect(run.out).toMatch(
      /^marked "parse\/\*" as a new baseline from abc003000000 \(#3 of 4\) in .* gh-pages:benchgate\/history\.json: 2 series match, 2 with results on both sides \([0-9a-f]{12}\)\n$/,
    );
    expect(run.err).toContain("attempt 1/8: pushing");
    const after = historyAt(remote);
    expect(after.breaks).toEqual([
      {
        benchmark: "parse/*",
        from: sha(3),
        reason: REASON,
        recorded_at: "2026-03-01T12:00:00.000Z",
      },
    ]);
    // Nothing else changed: every record and series is as it was.
    expect(after.commits).toEqual(before.commits);
    expect(after.series).toEqual(before.series);

    // One fast-forward commit holding the mark and the page drawn from it.
    const marked = tip(remote) as string;
    expect(git(remote, ["rev-parse", `${marked}~1`]).trim()).toBe(parent);
    expect(git(remote, ["log", "-1", "--format=%s", marked]).trim()).toBe(
      `benchgate: new baseline for parse/* from abc003000000: ${REASON}`,
    );
    const changed = git(remote, ["diff", "--name-only", parent, marked]).trim().split("\n");
    expect(changed).toEqual(
      expect.arrayContaining(["benchgate/history.json", "benchgate/benchgate-data.js"]),
    );
    const model = pageModelAt(remote);
    expect(model.breaks).toEqual([{ benchmark: "parse/*", index: 2, reason: REASON, series: 2 }]);
    for (const series of model.series)
      expect(series.breaks).toEqual([{ index: 2, reason: REASON }]);

    // The same mark again: nothing to push.
    const again = await cli(supersedeArgs(remote, "parse/*", sha(3)));
    expect(again.status, again.err).toBe(0);
    expect(again.out).toMatch(
      /^"parse\/\*" is already marked from abc003000000 \(#3 of 4\) with this reason in .*; nothing to push\n$/,
    );
    expect(tip(remote)).toBe(marked);

    // Later appends keep it.
    await append(remote, 5);
    expect(historyAt(remote).breaks).toEqual(after.breaks);
    expect(pageModelAt(remote).series[0]?.breaks).toEqual([{ index: 2, reason: REASON }]);

    const listed = tip(remote);
    const list = await cli(["history", "supersede", "--list", "--remote", remote]);
    expect(list.status, list.err).toBe(0);
    expect(list.out).toMatch(
      /^1 superseded baseline in .* gh-pages:benchgate\/history\.json:\n {2}abc003000000 \(#3 of 5\) {2}"parse\/\*" \(2 series\) {2}2026-03-01T12:00:00\.000Z {2}"criterion 0\.6: a new harness <b>& \\"loop\\"<\/b>"\n$/,
    );
    // Listing writes nothing.
    expect(tip(remote)).toBe(listed);
  });

  it("refuses, writing nothing: an unrecorded commit, a glob that matches nothing, a bad reason, a PR's workflow", async () => {
    const remote = bareRemote();
    for (const n of [1, 2, 3]) await append(remote, n);
    const before = tip(remote);
    const refused = async (args: string[], message: RegExp, env = {}): Promise<void> => {
      const run = await cli(args, env);
      expect(run.status, run.out).toBe(2);
      expect(run.err).toMatch(message);
      expect(tip(remote)).toBe(before);
    };
    // abc0039… shares "abc00" with every recorded commit and "abc003" with commit 3 alone.
    await refused(
      supersedeArgs(remote, "parse/*", "abc0039"),
      /\nbenchgate: error: gh-pages:benchgate\/history\.json: --from abc0039 is not a commit of the history \(3 recorded; .*\); nearest by SHA: abc0030000 \(#3 "commit 3"\), .*; newest: abc0030000 \(#3 "commit 3"\), abc0020000 \(#2 "commit 2"\), abc0010000 \(#1 "commit 1"\)\n$/,
    );
    await refused(
      supersedeArgs(remote, "parse", sha(2)),
      /"parse" matches none of the 2 series' ids/,
    );
    await refused(
      [
        ...supersedeArgs(remote, "parse/*", sha(2)).slice(0, -4),
        "--reason",
        "a\u001b[31mred",
        "--remote",
        remote,
      ],
      /--reason must be plain text on one line/,
    );
    await refused(
      ["history", "supersede", "parse/*", "--from", sha(2), "--remote", remote],
      /--reason TEXT is required/,
    );
    const prEvent = fresh("event") + ".json";
    writeFileSync(
      prEvent,
      JSON.stringify({
        pull_request: { head: { repo: { full_name: "owner/repo" } } },
        repository: { full_name: "owner/repo", default_branch: "main" },
      }),
    );
    await refused(
      supersedeArgs(remote, "parse/*", sha(2)),
      /refusing to write history: the "pull_request" event/,
      {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_REF: "refs/pull/7/merge",
        GITHUB_REPOSITORY: "owner/repo",
        GITHUB_EVENT_PATH: prEvent,
      },
    );

    // No history on the branch yet: nothing to supersede, and no branch is created.
    const empty = bareRemote();
    const none = await cli(supersedeArgs(empty, "parse/*", sha(2)));
    expect(none.status).toBe(2);
    expect(none.err).toMatch(/there is no history here yet, so nothing to supersede/);
    expect(tip(empty)).toBeUndefined();
  });

  it("never forces a push", () => {
    expect(gitCalls.some((a) => a.includes("push"))).toBe(true);
    for (const argv of gitCalls) {
      expect(argv).not.toContain("--force");
      expect(argv).not.toContain("--force-with-lease");
      expect(argv.some((a) => /^\+/.test(a))).toBe(false);
    }
  });
});

describe("history supersede --history FILE", () => {
  it("edits a local history.json in place, idempotently, and lists its marks", async () => {
    const file = fresh("history") + ".json";
    const history = syntheticHistory({ benchmarks: 6, commits: 30, seed: 3 });
    writeFileSync(file, serializeHistory(history));
    const from = history.commits[12]?.sha as string;
    const args = [
      "history",
      "supersede",
      "parser/*",
      "--from",
      from,
      "--reason",
      "new input set",
      "--history",
      file,
    ];

    const run = await cli(args);
    expect(run.status, run.err).toBe(0);
    expect(run.out).toMatch(
      new RegExp(
        `^marked "parser/\\*" as a new baseline from ${from.slice(0, 12)} \\(#13 of 30\\) in ${file}: 2 series match, 2 with results on both sides\\n$`,
      ),
    );
    const written = readFileSync(file, "utf8");
    const marked = validateHistory(JSON.parse(written), file);
    expect(marked.breaks).toEqual([
      {
        benchmark: "parser/*",
        from,
        reason: "new input set",
        recorded_at: "2026-03-01T12:00:00.000Z",
      },
    ]);
    expect(marked.commits).toEqual(history.commits);
    expect(written).toBe(serializeHistory(marked));

    const again = await cli(args, {}, new Date("2026-04-01T00:00:00Z"));
    expect(again.status).toBe(0);
    expect(again.out).toMatch(/is already marked .* with this reason in .*; file unchanged\n$/);
    expect(readFileSync(file, "utf8")).toBe(written);

    const list = await cli(["history", "supersede", "--list", "--history", file]);
    expect(list.out).toBe(
      `1 superseded baseline in ${file}:\n  ${from.slice(0, 12)} (#13 of 30)  "parser/*" (2 series)  2026-03-01T12:00:00.000Z  "new input set"\n`,
    );

    for (const [extra, message] of [
      [["--branch", "x"], /--branch is for --remote/],
      [["--remote", "r"], /one of --remote URL\|PATH .* or --history FILE/],
    ] as const) {
      const bad = await cli([...args, ...extra]);
      expect(bad.status).toBe(2);
      expect(bad.err).toMatch(message);
    }
    const listWithGlob = await cli(["history", "supersede", "x", "--list", "--history", file]);
    expect(listWithGlob.err).toMatch(/--list takes no ID-GLOB/);
    expect(readFileSync(file, "utf8")).toBe(written);
  });

  it("prints its help, and is listed by history --help", async () => {
    const help = await cli(["history", "supersede", "--help"]);
    expect(help.status).toBe(0);
    expect(help.out).toMatch(
      /^Usage: benchgate history supersede ID-GLOB --from SHA --reason TEXT/,
    );
    expect((await cli(["history", "--help"])).out).toMatch(/\n {2}supersede +mark a new baseline/);
  });
});
