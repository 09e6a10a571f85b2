// The Where step with a fake machine: an in-memory file system, a clock that moves only when a
// process runs, and a process port that "runs Callgrind" by writing the demo crate's real
// profiles (fixtures/callgrind-3.19) for whichever side's executable was staged, beside the
// empty file Criterion's forked child leaves.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRunConfig, type SuitePlan } from "../config/run-config.ts";
import type { DirEntry } from "../ports/files.ts";
import type { ProcessOptions, ProcessResult } from "../ports/process.ts";
import { Progress } from "../runner/progress.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";
import { callgrindFixture } from "../../test/support/callgrind-fixtures.ts";
import { BASE_ENV } from "../config/suites/instructions/instructions-suite.ts";
import {
  findWhere,
  whereCapMs,
  withWhere,
  WHERE_MAX_REGRESSIONS,
  WHERE_MIN_MS,
  type WhereContext,
  type WhereMachine,
} from "./where-step.ts";

const fixture = (name: string): string =>
  readFileSync(path.join(FIXTURES, "callgrind-3.19", `callgrind.out.${name}`), "utf8");

const PLANS = resolveRunConfig(
  {
    version: 1,
    suites: [
      { kind: "criterion", name: "micro", bench: "demo" },
      {
        kind: "instructions",
        name: "startup",
        commands: [{ name: "help", command: ["{target}/release/demo-cli", "--help"] }],
        env: { DEMO_LEVEL: "3" },
      },
      {
        kind: "hyperfine",
        name: "cli",
        commands: [
          { name: "normalize", command: "{target}/release/demo-cli normalize < data.txt" },
        ],
      },
      { kind: "gungraun", name: "counts", bench: "counts" },
    ],
  },
  "benchgate.yml",
  { needSuites: true },
).suites;
const plan = (name: string): SuitePlan => {
  const found = PLANS.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no suite ${name}`);
  return found;
};
const MICRO = plan("micro");
const STARTUP = plan("startup");
const CLI = plan("cli");
const COUNTS = plan("counts");

interface Call {
  readonly argv: readonly string[];
  readonly options: ProcessOptions;
  readonly staged: string;
}

/** A machine whose files live in a Map; `profile(id, side)` says what Callgrind "writes" (null: it fails). */
function fakeMachine(
  profile: (id: string, side: string) => string | null,
  msPerRun = 5_000,
): { machine: WhereMachine; files: Map<string, string>; calls: Call[]; locked: Set<string> } {
  const files = new Map<string, string>([
    ["/cache/target-base/release/deps/demo-1", "BASE"],
    ["/cache/target-head/release/deps/demo-1", "HEAD"],
    ["/cache/target-base/release/demo-cli", "BASE"],
    ["/cache/target-head/release/demo-cli", "HEAD"],
  ]);
  const calls: Call[] = [];
  let now = 0;
  let temps = 0;
  const locked = new Set<string>();
  const under = (dir: string): string[] => [...files.keys()].filter((f) => f.startsWith(`${dir}/`));
  /** The entries right under `dir`: its files, and the folders that hold files deeper down. */
  const entries = (dir: string): DirEntry[] => {
    const byName = new Map<string, DirEntry["kind"]>();
    for (const f of under(dir)) {
      const [first, ...rest] = f.slice(dir.length + 1).split("/");
      if (first !== undefined) byName.set(first, rest.length === 0 ? "file" : "dir");
    }
    return [...byName]
      .map(([name, kind]) => ({ name, kind }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  };
  const result = (exitCode: number): ProcessResult => ({
    exitCode,
    signal: null,
    timedOut: false,
    aborted: false,
    stdout: "",
    stderrTail: exitCode === 0 ? "" : "valgrind: something broke\n",
    durationMs: msPerRun,
  });
  const machine: WhereMachine = {
    proc: (argv, options) => {
      now += msPerRun;
      // The program follows Valgrind's last option; a staged one is the side's bytes, else the
      // side is its worktree's.
      const out = argv.findIndex((a) => a.startsWith("--callgrind-out-file="));
      const staged = argv[out + 1] ?? "";
      const content = files.get(staged);
      const side =
        content === undefined ? (options.cwd.endsWith("/base") ? "base" : "head") : content;
      calls.push({ argv, options, staged });
      const id = argv.at(-1) ?? "";
      const text = profile(id, side.toLowerCase());
      if (text === null) return Promise.resolve(result(1));
      const pattern = (argv[out] ?? "").replace("--callgrind-out-file=", "");
      files.set(pattern.replace("%p", "4242"), text);
      // Criterion's forked child leaves an empty file; a shell's child process a profile.
      files.set(pattern.replace("%p", "4243"), argv.includes("--trace-children=yes") ? text : "");
      return Promise.resolve(result(0));
    },
    dirs: {
      makeTemp: (prefix) => Promise.resolve(`/tmp/${prefix}${++temps}`),
      ensure: () => Promise.resolve(),
      remove: (dir) => {
        for (const f of under(dir)) files.delete(f);
        return Promise.resolve();
      },
      copyFile: (from, to) => {
        const text = files.get(from);
        if (text === undefined) return Promise.reject(new Error(`no ${from}`));
        files.set(to, text);
        return Promise.resolve();
      },
      copyTree: () => Promise.reject(new Error("not used")),
      lock: (file) =>
        locked.has(file)
          ? Promise.resolve({ heldBy: "pid 7" })
          : (locked.add(file),
            Promise.resolve({ release: () => (locked.delete(file), Promise.resolve()) })),
      names: (dir) => Promise.resolve(entries(dir).map((e) => e.name)),
    },
    reader: {
      readText: (file) => {
        const text = files.get(file);
        return text === undefined ? Promise.reject(new Error(`no ${file}`)) : Promise.resolve(text);
      },
      list: (dir) => Promise.resolve(entries(dir)),
      kindOf: (file) =>
        Promise.resolve(files.has(file) ? "file" : under(file).length > 0 ? "dir" : undefined),
    },
    writer: {
      writeText: (file, text) => {
        files.set(file, text);
        return Promise.resolve();
      },
      writeBytes: () => Promise.reject(new Error("not used")),
    },
    clock: { now: () => now, date: () => new Date("2026-12-06T00:00:00Z") },
    interrupts: () => ({ signal: new AbortController().signal, dispose: () => undefined }),
    env: { PATH: "/usr/bin:/bin", HOME: "/home/runner" },
  };
  return { machine, files, calls, locked };
}

function context(lines: string[], suites: readonly SuitePlan[] = [MICRO, COUNTS]): WhereContext {
  const binary = (side: string) => ({
    executable: `/cache/target-${side}/release/deps/demo-1`,
    cwd: `/tmp/wt/${side}`,
  });
  return {
    suites,
    binaries: {
      base: new Map([["micro", binary("base")]]),
      head: new Map([["micro", binary("head")]]),
    },
    sides: {
      base: { worktree: "/tmp/wt/base", target: "/cache/target-base" },
      head: {
        worktree: "/tmp/wt/head",
        target: "/cache/target-head",
        suiteEnv: new Map([["cli", { DEMO_MODE: "head" }]]),
      },
    },
    out: "/out",
    cacheDir: "/cache",
    progress: new Progress((t) => lines.push(t), { now: () => 0, date: () => new Date() }),
    elapsedMs: 10 * 60_000,
  };
}

const regressed = (id: string, change: number, suite = "micro") =>
  makeEntry({ id, suite, change, verdict: "regressed" });

const demoProfiles = (id: string, side: string): string =>
  fixture(`${id === "checksum/fnv1a" ? "fnv1a" : "normalize"}.${side}`);

describe("findWhere", () => {
  it("profiles a Criterion regression on both sides and names the function", async () => {
    const { machine, files, calls } = fakeMachine(demoProfiles);
    const lines: string[] = [];
    const report = makeReport({
      verdict: "fail",
      benchmarks: [
        makeEntry({ id: "parse/100", suite: "micro", change: 0.001 }),
        regressed("normalize", 2.0),
      ],
    });
    const wheres = await findWhere(report, context(lines), machine);
    expect([...wheres.keys()]).toEqual([1]);
    const where = wheres.get(1);
    expect(where?.files).toEqual({
      base: "where/1-base.callgrind",
      head: "where/1-head.callgrind",
      flame_diff: "where/1-flame-diff.svg",
    });
    expect(where?.seconds).toBe(10);
    expect(where?.diff?.self[0]?.name).toBe("demo_crate::normalize");
    expect(where?.diff?.total.relative).toBeCloseTo(2.0, 1);
    // The parent's profile, not the child's empty one; the SVG beside it.
    expect(files.get("/out/where/1-base.callgrind")).toBe(fixture("normalize.base"));
    expect(files.get("/out/where/1-head.callgrind")).toBe(fixture("normalize.head"));
    expect(files.get("/out/where/1-flame-diff.svg")).toContain("<svg");

    // Both sides run the same bytes: one staged path, one folder, one fixed environment.
    expect(calls).toHaveLength(2);
    const [base, head] = calls;
    expect(base?.argv).toEqual(head?.argv);
    expect(base?.options.cwd).toBe(head?.options.cwd);
    expect(base?.options.env).toEqual(BASE_ENV);
    expect(base?.argv.slice(0, 5)).toEqual([
      "setarch",
      "-R",
      "valgrind",
      "--tool=callgrind",
      "--toggle-collect=criterion::routine::Routine::profile",
    ]);
    expect(base?.argv.slice(7)).toEqual(["--bench", "--profile-time", "1", "--exact", "normalize"]);
    expect(lines.join("")).toMatch(/where: normalize \(base\) under callgrind…/);
    expect(lines.join("")).toMatch(
      /where: normalize: \+200\.\d % instructions, most in demo_crate::normalize \(10 s\)/,
    );

    // The report keeps its schema (and its verdict) with `where` in it.
    const withIt = withWhere(report, wheres);
    expect(withIt.verdict).toBe("fail");
    expect(withIt.benchmarks[1]?.where?.diff?.self[0]?.name).toBe("demo_crate::normalize");
  });

  it("says why a regression has no Where: another suite kind, no executable, the caps", async () => {
    const { machine, calls } = fakeMachine(demoProfiles);
    const lines: string[] = [];
    const many = Array.from({ length: WHERE_MAX_REGRESSIONS + 1 }, (_, i) =>
      regressed(`normalize/${i}`, 1 + i / 10),
    );
    const report = makeReport({
      verdict: "fail",
      benchmarks: [regressed("counts::demo::fnv1a n4096", 0.03, "counts"), ...many],
    });
    const wheres = await findWhere(report, context(lines), machine);
    expect(wheres.get(0)?.note).toBe(
      "Where could not be computed: the suite's runs left no single Callgrind file of it on both sides",
    );
    // The largest first: normalize/0, the smallest, is the one left out.
    expect(wheres.get(1)?.note).toBe(
      `Where could not be computed: only the ${WHERE_MAX_REGRESSIONS} largest regressions are profiled`,
    );
    expect(calls).toHaveLength(2 * WHERE_MAX_REGRESSIONS);
    expect(wheres.get(WHERE_MAX_REGRESSIONS + 1)?.files?.base).toBe("where/1-base.callgrind");
    // Without the executables (cargo named none), nothing runs.
    const none = { ...context(lines), binaries: undefined };
    const noted = await findWhere(
      makeReport({ benchmarks: [regressed("normalize", 2)] }),
      none,
      machine,
    );
    expect(noted.get(0)?.note).toMatch(/cargo named none on both sides/);
    expect(calls).toHaveLength(2 * WHERE_MAX_REGRESSIONS);
  });

  it("stops at the time cap and turns a failing run into a note, never an error", async () => {
    // Each process takes a third of the cap: the first regression fits, the second does not.
    const cap = whereCapMs(0);
    expect(cap).toBe(WHERE_MIN_MS);
    const { machine } = fakeMachine(demoProfiles, cap / 3);
    const report = makeReport({
      benchmarks: [regressed("normalize", 2), regressed("checksum/fnv1a", 0.5)],
    });
    const ctx = { ...context([]), elapsedMs: 0 };
    const wheres = await findWhere(report, ctx, machine);
    expect(wheres.get(0)?.diff).toBeDefined();
    expect(wheres.get(1)?.note).toMatch(/^Where could not be computed: .*time cap/);

    const failing = fakeMachine((_id, side) =>
      side === "head" ? null : fixture("normalize.base"),
    );
    const lines: string[] = [];
    const failed = await findWhere(
      makeReport({ benchmarks: [regressed("normalize", 2)] }),
      context(lines),
      failing.machine,
    );
    expect(failed.get(0)?.note).toMatch(
      /^Where could not be computed: where \(head\): callgrind exited with code 1/,
    );
    expect(failed.get(0)?.diff).toBeUndefined();
    expect(lines.join("")).toMatch(/warning: where: normalize:/);
  });

  it("reads a gungraun regression's own profiles from the run's output, running nothing", async () => {
    const { machine, files, calls } = fakeMachine(demoProfiles);
    const tree = path.join(FIXTURES, "gungraun-where");
    const bench = "demo-crate/counts/demo/checksum.fnv1a";
    for (const tag of ["base-3", "head-3"])
      for (const name of ["summary.json", "callgrind.checksum.fnv1a.out"])
        files.set(
          `/out/raw/counts/${tag}/${bench}/${name}`,
          readFileSync(path.join(tree, tag, bench, name), "utf8"),
        );
    // An older round's folder without the benchmark: the latest that has it is taken.
    files.set("/out/raw/counts/base-1/other.txt", "");
    const lines: string[] = [];
    const report = makeReport({
      benchmarks: [regressed("counts::demo::checksum fnv1a", 0.032, "counts")],
    });
    const wheres = await findWhere(report, context(lines), machine);
    expect(calls).toHaveLength(0);
    const diff = wheres.get(0)?.diff;
    expect(diff?.basis).toEqual({
      kind: "per-iteration",
      base: 1,
      head: 1,
      method: "routine",
      routine: "counts::checksum::__gungraun_wrapper_mod::checksum",
    });
    expect(diff?.self.map((r) => [r.name, r.base, r.head])).toEqual([
      ["demo_crate::fnv1a", 15_382, 15_878],
    ]);
    expect(diff?.total.relative).toBeCloseTo(0.0318, 3);
    expect(files.get("/out/where/1-head.callgrind")).toBe(
      readFileSync(path.join(tree, "head-3", bench, "callgrind.checksum.fnv1a.out"), "utf8"),
    );
    expect(lines.join("")).toMatch(/from the suite's own profiles/);
  });

  it("holds the cache's lock while it profiles, and runs nothing when another run holds it", async () => {
    const { machine, calls, locked } = fakeMachine(demoProfiles);
    const report = makeReport({ benchmarks: [regressed("normalize", 2)] });
    await findWhere(report, context([]), machine);
    expect(locked.size).toBe(0);
    expect(calls).toHaveLength(2);
    locked.add("/cache/run.lock");
    const wheres = await findWhere(report, context([]), machine);
    expect(wheres.get(0)?.note).toBe(
      "Where could not be computed: another run (pid 7) took the cache after this one",
    );
    expect(calls).toHaveLength(2);
  });

  it("runs an instruction-count command as it was measured: staged, fixed environment, whole runs", async () => {
    const { machine, files, calls } = fakeMachine(demoProfiles);
    const lines: string[] = [];
    const report = makeReport({ benchmarks: [regressed("help", 0.5, "startup")] });
    const wheres = await findWhere(report, context(lines, [STARTUP]), machine);
    const where = wheres.get(0);
    expect(where?.diff?.basis).toEqual({
      kind: "per-run",
      reason: "a command's instructions, one run on each side",
    });
    expect(where?.diff?.self[0]?.name).toBe("demo_crate::normalize");
    expect(calls).toHaveLength(2);
    const [base, head] = calls;
    // One staged path for both sides' program, so argv is the same bytes; each side in its
    // worktree, as the suite ran; no Criterion toggle and, like Cachegrind there, no children.
    expect(base?.argv).toEqual(head?.argv);
    expect(base?.staged).toMatch(/^\/tmp\/benchgate-where-\d+\/demo-cli$/);
    expect(base?.argv.at(-1)).toBe("--help");
    expect(base?.argv.some((a) => a.startsWith("--toggle-collect"))).toBe(false);
    expect(base?.argv).not.toContain("--trace-children=yes");
    expect([base?.options.cwd, head?.options.cwd]).toEqual(["/tmp/wt/base", "/tmp/wt/head"]);
    expect(base?.options.env).toEqual({ ...BASE_ENV, DEMO_LEVEL: "3" });
    expect(head?.options.env).toEqual(base?.options.env);
    expect(files.get("/out/where/1-base.callgrind")).toBe(fixture("normalize.base"));
  });

  it("runs a hyperfine command line through the shell, every process it starts summed", async () => {
    const { machine, files, calls } = fakeMachine((_id, side) => fixture(`normalize.${side}`));
    const report = makeReport({ benchmarks: [regressed("normalize", 2, "cli")] });
    const wheres = await findWhere(report, context([], [CLI]), machine);
    const diff = wheres.get(0)?.diff;
    expect(diff?.basis.kind).toBe("per-run");
    // Two processes per side (the fake writes the same profile for each): both parts count.
    const once = callgrindFixture("normalize.base").total;
    expect(diff?.total.base).toBe(2 * once);
    // Whole runs: the head profile iterated fewer times, so less than per iteration's +200 %.
    const head = callgrindFixture("normalize.head").total;
    expect(diff?.total.relative).toBeCloseTo(head / once - 1, 9);
    expect(files.get("/out/where/1-base.callgrind")).toBe(fixture("normalize.base").repeat(2));
    const [baseCall, headCall] = calls;
    expect(baseCall?.argv).toContain("--trace-children=yes");
    // The side's own paths (shell-quoted when they need it), in the side's worktree and environment.
    expect(baseCall?.argv.slice(-3)).toEqual([
      "sh",
      "-c",
      "/cache/target-base/release/demo-cli normalize < data.txt",
    ]);
    expect(headCall?.argv.at(-1)).toBe("/cache/target-head/release/demo-cli normalize < data.txt");
    // The environment hyperfine had: the side's (its target directory) and its suite's set-up.
    expect(baseCall?.options.env).toEqual({
      ...machine.env,
      CARGO_TARGET_DIR: "/cache/target-base",
      CARGO_TERM_COLOR: "never",
      CARGO_TERM_PROGRESS_WHEN: "never",
    });
    expect(headCall?.options.env).toEqual({
      ...machine.env,
      CARGO_TARGET_DIR: "/cache/target-head",
      CARGO_TERM_COLOR: "never",
      CARGO_TERM_PROGRESS_WHEN: "never",
      DEMO_MODE: "head",
    });
    expect(headCall?.options.cwd).toBe("/tmp/wt/head");
  });

  it("turns a run that counted nothing (an id the harness does not know) into a note", async () => {
    const empty = "# callgrind format\nversion: 1\nevents: Ir\nsummary: 0\ntotals: 0\n";
    const { machine } = fakeMachine((_id, side) =>
      side === "base" ? empty : fixture("normalize.head"),
    );
    const wheres = await findWhere(
      makeReport({ benchmarks: [regressed("normalize", 2)] }),
      context([]),
      machine,
    );
    expect(wheres.get(0)?.note).toBe(
      "Where could not be computed: Callgrind counted no instructions on base: the harness ran no benchmark by this id",
    );
  });

  it("says so when the worktrees a command needs were not kept", async () => {
    const { machine, calls } = fakeMachine(demoProfiles);
    const report = makeReport({ benchmarks: [regressed("normalize", 2, "cli")] });
    const ctx = { ...context([], [CLI]), sides: undefined };
    const wheres = await findWhere(report, ctx, machine);
    expect(wheres.get(0)?.note).toBe(
      "Where could not be computed: the run's worktrees were not kept for it",
    );
    expect(calls).toHaveLength(0);
  });

  it("profiles nothing when nothing regressed", async () => {
    const { machine, calls } = fakeMachine(demoProfiles);
    const wheres = await findWhere(makeReport(), context([]), machine);
    expect(wheres.size).toBe(0);
    expect(calls).toHaveLength(0);
  });
});
