// `benchgate run` end to end with the real tools (git, cargo + Criterion, hyperfine, critcmp) on
// throw-away copies of examples/demo-crate. The machine is noisy: nothing here depends on a
// timing except the `normalize` slowdown. The demo's head patch makes it ×3, which three rounds
// on two cores that other work keeps busy do not always confirm (inconclusive, rightly); the
// tests that need a confirmed regression make it ×30 (support/git-repo.ts NORMALIZE_30X).
// All tests share one --cache-dir (ROOT/.benchgate/test-cache, gitignored) so the dependencies
// compile once; the first test pays for that (about a minute on a cold cache).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI_SOURCE, ROOT, expectInputError, runCli, type CliResult } from "./support/cli.ts";
import {
  NORMALIZE_30X,
  replaceOnce,
  throwAwayRepo,
  worktrees,
  type RepoOptions,
  type ThrowAwayRepo,
} from "./support/git-repo.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";
import { CARGO_BIN, demoTestConfig, TEST_CACHE } from "./support/demo-test-config.ts";

const LONG = 600_000;
const ROUNDS = 3;

/** The shared demo test config; five rounds unless a test says otherwise. */
function testConfig(options: { bench?: string; budgets?: string; rounds?: number } = {}): string {
  return demoTestConfig({ ...options, rounds: options.rounds ?? 5 });
}

const HELP_LINE = "print this help (also -h, --help)";
const changeHelpText = (text: string): string =>
  replaceOnce(text, HELP_LINE, "prints this help (also -h, --help)");
const PANIC = "benchgate-test: normalize blew up";
const panicInNormalize = (text: string): string =>
  replaceOnce(
    text,
    "fn bench_normalize(c: &mut Criterion) {",
    // A condition the compiler cannot see through, so nothing after it is unreachable code.
    `fn bench_normalize(c: &mut Criterion) {\n    if std::env::var_os("BENCHGATE_TEST_NO_PANIC").is_none() {\n        panic!("${PANIC}");\n    }`,
  );

let scratch: string;

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "benchgate-run-test-")));
  mkdirSync(TEST_CACHE, { recursive: true });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Case {
  readonly name: string;
  readonly repo: ThrowAwayRepo;
  /** --out */
  readonly out: string;
  /** TMPDIR of the child: where benchgate makes its worktrees. */
  readonly tmp: string;
  /** A --config file outside the repository. */
  readonly config: string;
}

function setup(name: string, options: RepoOptions & { config?: string } = {}): Case {
  const root = path.join(scratch, name);
  mkdirSync(path.join(root, "tmp"), { recursive: true });
  const config = path.join(root, "benchgate.test.yml");
  writeFileSync(config, options.config ?? testConfig());
  return {
    name,
    repo: throwAwayRepo(path.join(root, "repo"), options),
    out: path.join(root, "out"),
    tmp: path.join(root, "tmp"),
    config,
  };
}

function childEnv(tmp: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${CARGO_BIN}${path.delimiter}${process.env["PATH"] ?? ""}`,
    TMPDIR: tmp,
    BENCHGATE_DEBUG: "",
    BENCHGATE_CACHE_DIR: "",
  };
}

interface Running {
  readonly result: Promise<CliResult & { signal: NodeJS.Signals | null }>;
  readonly stderr: () => string;
  readonly kill: (signal: NodeJS.Signals) => boolean;
}

/** Starts the CLI without blocking the test worker (a run takes seconds to minutes). */
function start(args: readonly string[], tmp: string): Running {
  const child = spawn(process.execPath, [CLI_SOURCE, ...args], {
    cwd: ROOT,
    env: childEnv(tmp),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const result = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { result, stderr: () => stderr, kill: (signal) => child.kill(signal) };
}

/** `benchgate run` on the case's repository, base = main~1 and head = main. */
function run(c: Case, extra: readonly string[] = [], withConfig = true): Running {
  return start(
    [
      "run",
      "--base",
      "main~1",
      "--head",
      "main",
      ...(withConfig ? ["--config", c.config] : []),
      "--repo",
      c.repo.dir,
      "--out",
      c.out,
      "--cache-dir",
      TEST_CACHE,
      ...extra,
    ],
    c.tmp,
  );
}

const readReport = (c: Case): BenchReport =>
  JSON.parse(readFileSync(path.join(c.out, "report.json"), "utf8")) as BenchReport;

/** Prints what the CLI said when an expectation on it fails. */
function said(r: CliResult): string {
  return `exit ${String(r.status)}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-6000)}`;
}

/** Resolves once the run's stderr matches `pattern` (a progress line); rejects if it ends first. */
function saying(running: Running, pattern: RegExp): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (pattern.test(running.stderr())) {
        clearInterval(poll);
        resolve();
      }
    }, 50);
    running.result.then(
      (r) => {
        clearInterval(poll);
        reject(new Error(`finished before it said ${String(pattern)}\n${said(r)}`));
      },
      (error: unknown) => {
        clearInterval(poll);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** No worktree registered besides the main checkout, no worktree folder left, no cache lock. */
function expectCleanedUp(c: Case, cache = TEST_CACHE): void {
  expect(worktrees(c.repo.dir)).toEqual([c.repo.dir]);
  expect(readdirSync(c.tmp).filter((n) => n.startsWith("benchgate-worktrees-"))).toEqual([]);
  expect(existsSync(path.join(cache, "run.lock")), "run.lock left behind").toBe(false);
}

function verdictOf(report: BenchReport, id: string): string | undefined {
  return report.benchmarks.find((b) => b.id === id)?.verdict;
}

// One repository and --out per test, one shared cache: the tests must never overlap.
describe(
  "benchgate run (real tools on examples/demo-crate)",
  { concurrent: false, timeout: LONG },
  () => {
    it("A/A: head is an empty commit on base; every output is written and valid, exit 0", async () => {
      const c = setup("aa");
      // The highest fail threshold there is (×11): this test is about the outputs, not about noise.
      // With 3 rounds on two shared cores, one A/A run at 50 % did come out "regressed" (most
      // likely `help`, a 1 ms process start with heavy-tailed times).
      const r = await run(c, ["--rounds", String(ROUNDS), "--fail-threshold", "1000%"]).result;
      expect(r.status, said(r)).toBe(0);

      const reportFile = path.join(c.out, "report.json");
      const validReport = runCli(["validate", reportFile, "--schema", "report"]);
      expect(validReport.status, said(validReport)).toBe(0);
      const report = readReport(c);
      expect(["pass", "inconclusive"]).toContain(report.verdict);
      expect(report.benchmarks.map((b) => b.id).sort()).toEqual([
        "checksum/fnv1a",
        "help",
        "normalize",
      ]);
      expect(report.golden.map((g) => [g.name, g.ok])).toEqual([
        ["cli-help", true],
        ["cli-stats", true],
      ]);

      const summaries = path.join(c.out, "summaries");
      const names = ["base", "head"].flatMap((side) =>
        [1, 2, 3].map((round) => `${side}-${round}.json`),
      );
      expect(readdirSync(summaries).sort()).toEqual(names);
      const files = names.map((n) => path.join(summaries, n));
      const validSummaries = runCli(["validate", ...files, "--schema", "summary"]);
      expect(validSummaries.status, said(validSummaries)).toBe(0);
      for (const file of files) {
        const s = JSON.parse(readFileSync(file, "utf8")) as BenchSummary;
        const [side, round] = path.basename(file, ".json").split("-") as [string, string];
        expect(s.side).toBe(side);
        expect(s.round).toBe(Number(round));
        expect(s.commit).toBe(side === "base" ? c.repo.base : c.repo.head);
        expect(s.ref).toBe(side === "base" ? "main~1" : "main");
        expect(Number.isNaN(Date.parse(s.started_at ?? ""))).toBe(false);
        expect(s.environment?.fingerprint).toMatch(/\S/);
        expect(s.benchmarks.map((b) => b.id).sort()).toEqual([
          "checksum/fnv1a",
          "help",
          "normalize",
        ]);
      }

      const comment = readFileSync(path.join(c.out, "comment.md"), "utf8");
      expect(comment).toMatch(
        /^(<!-- benchgate:[a-z0-9-]+ -->\n)?## \S+ benchgate: (pass|inconclusive)\b/u,
      );
      const critcmp = readFileSync(path.join(c.out, "critcmp.txt"), "utf8");
      expect(critcmp).toContain("base-3");
      expect(critcmp).toContain("head-3");
      expect(critcmp).toContain("normalize");
      for (const dir of ["raw/micro", "raw/cli", "logs"])
        expect(existsSync(path.join(c.out, dir)), dir).toBe(true);
      expect(r.stdout).toContain("written to");
      // The worktrees were made in the child's TMPDIR, and are gone again.
      expect(readFileSync(path.join(c.out, "logs/build-base.log"), "utf8")).toContain(
        path.join(c.tmp, "benchgate-worktrees-"),
      );
      expectCleanedUp(c);
    });

    it("the demo's head patch (normalize ×30): normalize regressed, golden cli-help changed, exit 1", async () => {
      const c = setup("patch", { headPatch: true, head: NORMALIZE_30X });
      const r = await run(c, ["--rounds", String(ROUNDS)]).result;
      expect(r.status, said(r)).toBe(1);
      const report = readReport(c);
      expect(report.verdict).toBe("fail");
      expect(verdictOf(report, "normalize"), said(r)).toBe("regressed");
      const help = report.golden.find((g) => g.name === "cli-help");
      expect(help?.ok).toBe(false);
      expect(help?.diff).toContain("show this help text");
      expect(report.golden.find((g) => g.name === "cli-stats")?.ok).toBe(true);
      const comment = readFileSync(path.join(c.out, "comment.md"), "utf8");
      expect(comment).toMatch(/^(<!-- benchgate:[a-z0-9-]+ -->\n)?## \S+ benchgate: fail/u);
      expect(comment).toMatch(/golden output changed: cli-help/);
      expect(comment).toContain("normalize");
      expectCleanedUp(c);
    });

    it("rounds: auto on the demo's head patch (normalize ×30): normalize regressed, the run stops between min and max rounds", async () => {
      const c = setup("auto", { headPatch: true, head: NORMALIZE_30X });
      const r = await run(c, ["--rounds", "auto", "--min-rounds", "3", "--max-rounds", "5"]).result;
      expect(r.status, said(r)).toBe(1);
      const report = readReport(c);
      expect(verdictOf(report, "normalize"), said(r)).toBe("regressed");
      const names = readdirSync(path.join(c.out, "summaries"));
      const n = names.filter((name) => name.startsWith("base-")).length;
      expect(n, said(r)).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
      expect(names.sort()).toEqual(
        ["base", "head"]
          .flatMap((side) => Array.from({ length: n }, (_, i) => `${side}-${i + 1}.json`))
          .sort(),
      );
      for (const name of names) {
        const s = JSON.parse(
          readFileSync(path.join(c.out, "summaries", name), "utf8"),
        ) as BenchSummary;
        expect(s.sequential, name).toEqual({ min_rounds: 3, max_rounds: 5 });
        // Rounds 1 to 3 measure everything; later ones only what was still open.
        if (s.round <= 3)
          expect(s.benchmarks.map((b) => b.id).sort(), name).toEqual([
            "checksum/fnv1a",
            "help",
            "normalize",
          ]);
      }
      expect(r.stderr).toMatch(/round 1 of 3–5 · base \(first\) · micro \(criterion\)/);
      expect(r.stderr).toMatch(/after round 3: \d+ of 3 benchmarks still open/);
      expect(r.stderr).toMatch(
        /stopping after round [345]: (every benchmark is settled|max-rounds reached)/,
      );
      // critcmp compares a round in which every benchmark ran.
      const critcmp = readFileSync(path.join(c.out, "critcmp.txt"), "utf8");
      expect(critcmp).toContain("base-3");
      expect(critcmp).toContain("normalize");
      expect(r.stdout).toContain("critcmp's table of round 3");
      expectCleanedUp(c);
    });

    it("a first run on a machine (head's target seeded from base's) still builds and measures head", async () => {
      // A cache with only target-base/, as after the base build of a machine's first run: the
      // run copies it to target-head/, and head's own code must still be compiled.
      const cache = path.join(scratch, "seed-cache");
      const sharedBase = path.join(TEST_CACHE, "target-base");
      if (existsSync(sharedBase))
        cpSync(sharedBase, path.join(cache, "target-base"), {
          recursive: true,
          preserveTimestamps: true,
        });
      const c = setup("seed", { headPatch: true, head: NORMALIZE_30X });
      try {
        const r = await start(
          [
            "run",
            "--base",
            "main~1",
            "--head",
            "main",
            "--config",
            c.config,
            "--rounds",
            String(ROUNDS),
            "--repo",
            c.repo.dir,
            "--out",
            c.out,
            "--cache-dir",
            cache,
          ],
          c.tmp,
        ).result;
        expect(r.stderr).toContain("seeding it from base's target directory");
        const headBuild = readFileSync(path.join(c.out, "logs/build-head.log"), "utf8");
        expect(headBuild, "head's crate was not recompiled").toMatch(/Compiling demo-crate/);
        expect(r.status, said(r)).toBe(1);
        const report = readReport(c);
        expect(report.golden.find((g) => g.name === "cli-help")?.ok).toBe(false);
        expect(verdictOf(report, "normalize"), said(r)).toBe("regressed");
        expectCleanedUp(c, cache);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    });

    it("a benchmark that panics: exit 3, one error line naming suite, side and round, its stderr above", async () => {
      const c = setup("panic", { head: { "benches/demo.rs": panicInNormalize } });
      // schedule: suite runs the bench target whole in round 1; under pairs the panic already
      // stops the listing of its benchmarks before the rounds (the next test).
      const r = await run(c, ["--rounds", String(ROUNDS), "--schedule", "suite"]).result;
      expect(r.status, said(r)).toBe(3);
      const lines = r.stderr.trimEnd().split("\n");
      const errors = lines.filter((l) => l.startsWith("benchgate: error: "));
      expect(errors, said(r)).toHaveLength(1);
      expect(errors[0]).toMatch(/suite micro \(head, round 1\)/);
      expect(errors[0]).toMatch(/exited with code 101/);
      expect(lines.at(-1)).toBe(errors[0]);
      const panicAt = lines.findIndex((l) => l.includes(PANIC));
      expect(panicAt, said(r)).toBeGreaterThanOrEqual(0);
      expect(panicAt).toBeLessThan(lines.length - 1);
      expect(r.stderr).not.toMatch(/\n\s+at .*\.ts:\d+/);
      expect(existsSync(path.join(c.out, "report.json"))).toBe(false);
      expectCleanedUp(c);
    });

    it("a benchmark that panics under pairs: exit 3 before any round, naming the suite, the side and its listing", async () => {
      const c = setup("panic-pairs", { head: { "benches/demo.rs": panicInNormalize } });
      const r = await run(c, ["--rounds", String(ROUNDS)]).result;
      expect(r.status, said(r)).toBe(3);
      const errors = r.stderr.split("\n").filter((l) => l.startsWith("benchgate: error: "));
      expect(errors, said(r)).toHaveLength(1);
      expect(errors[0]).toMatch(
        /suite micro \(head\): listing its benchmarks exited with code 101/,
      );
      expect(existsSync(path.join(c.out, "report.json"))).toBe(false);
      expectCleanedUp(c);
    });

    it("a bench target that does not exist: exit 2 naming /suites/0/bench", async () => {
      const c = setup("nope", { config: testConfig({ bench: "nope" }) });
      // --quiet: without it the progress lines come before the one error line.
      const r = await run(c, ["--rounds", String(ROUNDS), "--quiet"]).result;
      const line = expectInputError(r, said(r));
      expect(line).toContain(c.config);
      expect(line).toContain("/suites/0/bench");
      expect(line).toContain("no bench target");
      expect(line).toContain('"nope"');
      expectCleanedUp(c);
    });

    it("a golden output changed and nothing else: the gate fails (exit 1) on golden alone", async () => {
      const c = setup("golden", { head: { "src/bin/demo-cli.rs": changeHelpText } });
      const r = await run(c, ["--rounds", String(ROUNDS)]).result;
      expect(r.status, said(r)).toBe(1);
      const report = readReport(c);
      expect(report.verdict).toBe("fail");
      expect(report.reasons.join("\n")).toMatch(/golden output changed: cli-help/);
      expect(report.golden.map((g) => [g.name, g.ok])).toEqual([
        ["cli-help", false],
        ["cli-stats", true],
      ]);
      expect(report.golden[0]?.diff).toContain("prints this help");
      expect(r.stdout).toMatch(/cli-help/);
      expectCleanedUp(c);
    });

    it("budgets come from the BASE commit's benchgate.yml: head cannot loosen them (exit 1)", async () => {
      const budget = (limit: string): string =>
        `budgets:\n  - benchmark: "normalize"\n    median: "< ${limit}"\n`;
      const c = setup("budget", {
        base: { "benchgate.yml": testConfig({ rounds: ROUNDS, budgets: budget("1ns") }) },
        head: { "benchgate.yml": testConfig({ rounds: ROUNDS, budgets: budget("10s") }) },
      });
      const r = await run(c, [], false).result;
      expect(r.status, said(r)).toBe(1);
      const report = readReport(c);
      expect(report.verdict).toBe("fail");
      expect(report.rounds).toHaveLength(ROUNDS);
      const broken = report.budgets.filter((b) => !b.ok);
      expect(broken.map((b) => b.benchmark)).toEqual(["normalize"]);
      // The base's strict rule, not head's loosened one.
      expect(broken[0]?.rule).toBe("median < 1ns");
      expect(report.budgets.filter((b) => b.ok)).toEqual([]);
      expect(report.reasons.join("\n")).toMatch(/budget/);
      expectCleanedUp(c);
    });

    it("Ctrl-C (SIGINT) during round 1: stops the tools, removes the worktrees, exit 3", async () => {
      const c = setup("interrupt");
      const running = run(c, ["--rounds", "5"]);
      await saying(running, /round 1\/5 · /);
      const sent = Date.now();
      expect(running.kill("SIGINT")).toBe(true);
      const r = await running.result;
      expect(Date.now() - sent, "seconds from SIGINT to exit").toBeLessThan(15_000);
      expect(r.status, said(r)).toBe(3);
      expect(r.stderr).toMatch(/interrupted/);
      expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(/^benchgate: error: .*interrupted/);
      expect(existsSync(path.join(c.out, "report.json"))).toBe(false);
      expectCleanedUp(c);
      // Nothing of the run is still going: no process runs a binary from the cache's targets.
      const pgrep = spawnSync("pgrep", ["-f", `${TEST_CACHE}/target-`], { encoding: "utf8" });
      if (pgrep.error === undefined) expect(pgrep.stdout, "stray processes").toBe("");
    });

    it("SIGTERM after two complete rounds: the report of those two rounds, marked partial, exit 3", async () => {
      // A hyperfine command that is instant until the test creates HOLD, then sleeps: round 3 is
      // held in that command when the signal comes, whatever the machine's speed.
      const hold = path.join(scratch, "sigterm-hold");
      const config = testConfig().replace(
        '        command: "{target}/release/demo-cli --help"\n',
        `        command: "{target}/release/demo-cli --help"\n      - name: hold\n        command: "sh -c 'test ! -e ${hold} || sleep 120'"\n`,
      );
      expect(config).toContain("name: hold");
      const c = setup("sigterm-partial", { config });
      const running = run(c, ["--rounds", "5"]);
      await saying(running, /round 2\/5 done in /);
      writeFileSync(hold, "");
      // Round 3 has started the held command on one side at least: it cannot complete.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          const started = spawnSync("pgrep", ["-f", `test ! -e ${hold}`], { encoding: "utf8" });
          if (started.error !== undefined || started.stdout.trim() !== "") {
            clearInterval(poll);
            resolve();
          }
        }, 100);
      });
      expect(running.kill("SIGTERM")).toBe(true);
      const r = await running.result;
      expect(r.status, said(r)).toBe(3);
      expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /^benchgate: error: interrupted .*; the report of the 2 complete rounds is written, marked partial/,
      );

      const reportFile = path.join(c.out, "report.json");
      const valid = runCli(["validate", reportFile, "--schema", "report"]);
      expect(valid.status, said(valid)).toBe(0);
      const report = readReport(c);
      expect(report.partial).toEqual({
        reason: "signal",
        signal: "SIGTERM",
        rounds_completed: 2,
        rounds_planned: 5,
      });
      expect(report.rounds).toHaveLength(2);
      expect(report.settings.rounds).toBe(2);
      expect(["pass", "fail", "inconclusive"]).toContain(report.verdict);
      const line =
        "partial: stopped by SIGTERM after 2 of 5 rounds; this verdict is of those rounds only";
      expect(report.reasons[0]).toBe(line);
      expect(readFileSync(path.join(c.out, "comment.md"), "utf8")).toContain(line);
      expect(r.stdout.split("\n")[0]).toBe(`${line} (exit 3: interrupted)`);
      // Only complete rounds are kept: \`compare\` over the folder sees what the report saw.
      expect(readdirSync(path.join(c.out, "summaries")).sort()).toEqual([
        "base-1.json",
        "base-2.json",
        "head-1.json",
        "head-2.json",
      ]);
      expectCleanedUp(c);
    });

    describe("bad input: exit 2 with one line, before any worktree is made", () => {
      it("an unknown key in --config is named", async () => {
        const c = setup("unknown-key", {
          config: testConfig().replace("rounds: 5", "roundz: 5"),
        });
        const r = await run(c).result;
        const line = expectInputError(r, said(r));
        expect(line).toContain(c.config);
        expect(line).toContain('"roundz"');
        expectCleanedUp(c);
      });

      it("an unknown key in the base commit's benchgate.yml is named with the commit", async () => {
        const c = setup("unknown-key-base", {
          base: { "benchgate.yml": testConfig().replace("rounds: 5", "roundz: 5") },
          head: { "benchgate.yml": testConfig() },
        });
        const r = await run(c, [], false).result;
        const line = expectInputError(r, said(r));
        expect(line).toContain("benchgate.yml at main~1");
        expect(line).toContain('"roundz"');
      });

      it("a base commit without benchgate.yml and no --config (head's is not used)", async () => {
        const c = setup("no-config", {
          base: { "benchgate.yml": null },
          head: { "benchgate.yml": testConfig() },
        });
        const r = await run(c, [], false).result;
        const line = expectInputError(r, said(r));
        expect(line).toMatch(/base commit main~1 \([0-9a-f]{12}\) has no benchgate\.yml/);
        expect(line).toContain("--config");
        expectCleanedUp(c);
      });

      it("--min-rounds without rounds: auto, and --rounds or --time-budget that mean nothing", async () => {
        const c = setup("rounds-flags");
        const cases: [readonly string[], string][] = [
          [["--min-rounds", "4"], "--min-rounds is only used with rounds: auto"],
          [
            ["--rounds", "7", "--time-budget", "10m"],
            "--time-budget is only used with rounds: auto",
          ],
          [["--rounds", "five"], '--rounds must be "auto" or an integer in [1, 100], got "five"'],
          [
            ["--rounds", "auto", "--min-rounds", "1"],
            "--min-rounds must be an integer in [2, 100]",
          ],
          [["--rounds", "auto", "--time-budget", "soon"], "--time-budget: expected a duration"],
          [
            ["--rounds", "auto", "--min-rounds", "9", "--max-rounds", "4"],
            "--min-rounds: min-rounds 9 (--min-rounds) is more than max-rounds 4 (--max-rounds)",
          ],
        ];
        for (const [flags, message] of cases) {
          const r = await run(c, [...flags, "--quiet"]).result;
          expect(expectInputError(r, said(r)), flags.join(" ")).toContain(message);
        }
        expectCleanedUp(c);
      });

      it("an unknown ref", async () => {
        const c = setup("bad-ref");
        const r = await start(
          [
            "run",
            "--base",
            "nosuchbranch",
            "--head",
            "main",
            "--config",
            c.config,
            "--repo",
          ].concat([c.repo.dir, "--out", c.out, "--cache-dir", TEST_CACHE]),
          c.tmp,
        ).result;
        expect(expectInputError(r, said(r))).toContain('unknown ref "nosuchbranch"');
        expectCleanedUp(c);
      });

      it("an --out folder that is not empty and not benchgate's is left alone", async () => {
        const c = setup("foreign-out");
        mkdirSync(c.out);
        writeFileSync(path.join(c.out, "precious.txt"), "keep me\n");
        const r = await run(c, ["--quiet"]).result;
        expect(expectInputError(r, said(r))).toContain("is not empty");
        expect(readdirSync(c.out)).toEqual(["precious.txt"]);
        expectCleanedUp(c);
      });
    });
  },
);
