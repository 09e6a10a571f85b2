// The runner's rounds without cargo: a fake process port plays the tools (Criterion, through
// cargo bench or as its built executable, writes the captured fixture tree's benchmarks that its
// filter selects and lists them for `--list`; hyperfine exports its commands; the custom harness
// writes a summary), a fake clock times them, and a fake planner stands in for the statistics
// core's look. Files are real, in a folder the test gives. Used by runner/run-rounds.test.ts and
// runner/pair-round.test.ts.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { resolveRunConfig, type RunConfig, type SuitePlan } from "../../src/config/run-config.ts";
import type { SourcedSummary } from "../../src/core/pairing.ts";
import type { NextRound, StopReason } from "../../src/core/sequential.ts";
import { nodeDirs } from "../../src/io/node-dirs.ts";
import { nodeFileReader, nodeFileWriter } from "../../src/io/node-files.ts";
import { nodeServices } from "../../src/io/node-services.ts";
import type { ProcessOptions, ProcessResult } from "../../src/ports/process.ts";
import type { FileReader } from "../../src/ports/files.ts";
import type { BenchBinary, SidePaths } from "../../src/config/suites/suite-kind.ts";
import { Progress } from "../../src/runner/progress.ts";
import type { RunDeps } from "../../src/runner/run-request.ts";
import { runRounds } from "../../src/runner/run-rounds.ts";
import type { PairSetup } from "../../src/runner/pair-units.ts";
import type { RoundPlan } from "../../src/runner/round-plan.ts";
import type { RoundPlanner } from "../../src/runner/sequential-rounds.ts";
import type { BenchgateConfig } from "../../src/schemas/config.gen.ts";
import type { BenchSummary } from "../../src/schemas/summary.gen.ts";
import { FIXTURES } from "./fixtures.ts";

const CRITERION = path.join(FIXTURES, "criterion-0.8.2");
export const EVIL = "evil|name `tick` <b>x</b> @someone #12";
export const FIB = "fib 20";
export const SUM = "sum_vec/1000";

/** full_id → the benchmark's folder in the captured Criterion tree. */
function criterionFixture(): Map<string, string> {
  const ids = new Map<string, string>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      if (entry.name === "base") {
        const doc = JSON.parse(readFileSync(path.join(sub, "benchmark.json"), "utf8")) as {
          full_id: string;
        };
        ids.set(doc.full_id, path.relative(CRITERION, dir));
      } else visit(sub);
    }
  };
  visit(CRITERION);
  return ids;
}
let fixture: Map<string, string> | undefined;

/** Rust regex → JavaScript (see sequential-rounds.test.ts). */
export function asJsRegExp(filter: string): RegExp {
  const js = filter
    .replace(/\\x\{([0-9A-F]+)\}/g, "\\u{$1}")
    .replace(/\\([#&~-])/g, (_, c: string) => (c === "-" ? "\\x2D" : c));
  return new RegExp(js, "u");
}

export const SUITES: NonNullable<BenchgateConfig["suites"]> = [
  {
    name: "micro",
    kind: "criterion",
    bench: "tiny",
    filter: `^(fib|sum_vec/1000$|evil)`,
  },
  {
    name: "cli",
    kind: "hyperfine",
    commands: [
      { name: "help", command: "demo --help" },
      { name: "stats", command: "demo stats" },
    ],
  },
  { name: "harness", kind: "custom", command: ["harness", "{out}"], output: "summary.json" },
];
export const ALL = [FIB, SUM, EVIL, "help", "stats", "h/one", "h/two"].sort();
/** What `--list` with micro's filter prints, in Criterion's order. */
export const MICRO_IDS = [EVIL, FIB, SUM];

/** Plans of each kind as the runner gets them, for the pure parts' tests. */
export const PLANS = {
  micro: {
    kind: "criterion",
    name: "micro",
    timeoutMs: 1000,
    bench: "demo",
    features: [],
    args: [],
  },
  cli: {
    kind: "hyperfine",
    name: "cli",
    timeoutMs: 1000,
    commands: [
      { name: "help", command: "demo --help" },
      { name: "stats", command: "demo stats" },
    ],
    args: [],
  },
  counts: {
    kind: "instructions",
    name: "counts",
    timeoutMs: 1000,
    commands: [
      { name: "c/help", command: ["demo", "--help"] },
      { name: "c/stats", command: ["demo", "stats"] },
    ],
    env: {},
    counts: {},
  },
  harness: {
    kind: "custom",
    name: "harness",
    timeoutMs: 1000,
    command: ["h", "{out}"],
    output: "s.json",
  },
} as const satisfies Record<string, SuitePlan>;

/** A config of the fake suites; `schedule: suite` unless `extra` says otherwise. */
export const fakeConfig = (extra: Partial<BenchgateConfig>): RunConfig =>
  resolveRunConfig({ version: 1, suites: SUITES, schedule: "suite", ...extra }, "benchgate.yml", {
    needSuites: true,
  });

export interface Call {
  /** The log's name: `<suite>-<side>-<round>` (list-<side> for a listing). */
  readonly round: string;
  readonly tool: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** When the fake clock started it. */
  readonly at: number;
}

export interface FakeTools {
  /** Each benchmark's time per process (default 1000 ms). */
  readonly msPerBenchmark?: number;
  /** This id is missing from Criterion's output after round 3. */
  readonly lose?: string;
  /** Extra time a process takes for these ids (code that sets its own measurement time). */
  readonly slow?: ReadonlyMap<string, number>;
  /** The fake clock's start: what came before the rounds (checkouts, builds). */
  readonly startMs?: number;
  /** Each process's CPU time as this share of its wall time (as a cgroup tells); none without. */
  readonly cpuShare?: (argv: readonly string[]) => number;
  /** SIGTERM arrives while this process runs (its log's name, e.g. `cli-head-3`). */
  readonly interruptAt?: string;
}

/** A scene: the fake tools, clock and planner, and what they saw. */
export function scene(scratch: string, name: string, tools: FakeTools = {}) {
  fixture ??= criterionFixture();
  const fix = fixture;
  const out = path.join(scratch, name);
  mkdirSync(path.join(out, "summaries"), { recursive: true });
  let now = 0;
  const calls: Call[] = [];
  const lines: string[] = [];
  const reads: string[] = [];
  const clock = { now: () => now, date: () => new Date(Date.UTC(2026, 0, 1) + now) };
  const each = tools.msPerBenchmark ?? 1000;
  const done = (ms: number, stdout = "", argv: readonly string[] = []): ProcessResult => {
    now += ms;
    const share = tools.cpuShare?.(argv);
    return {
      ...(share === undefined ? {} : { cpuMs: ms * share }),
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout,
      stderrTail: "",
      durationMs: ms,
    };
  };
  const criterion = (argv: readonly string[], options: ProcessOptions): ProcessResult => {
    const at = argv.indexOf("--save-baseline");
    const baseline = argv[at + 1] ?? "";
    const filter = argv[at + 2];
    const re = filter === undefined ? /(?:)/u : asJsRegExp(filter);
    const home = options.env["CRITERION_HOME"] ?? "";
    let ms = 0;
    const late = Number(baseline.split("-")[1]) > 3;
    for (const [id, dir] of fix)
      if (re.test(id) && !(late && id === tools.lose)) {
        cpSync(path.join(CRITERION, dir, "base"), path.join(home, dir, baseline), {
          recursive: true,
        });
        ms += each + (tools.slow?.get(id) ?? 0);
      }
    return done(ms, "", argv);
  };
  const list = (argv: readonly string[]): ProcessResult => {
    const filter = argv.at(-1) === "--list" ? undefined : argv.at(-1);
    const re = filter === undefined ? /(?:)/u : new RegExp(filter, "u");
    const ids = [...fix.keys()].filter((id) => re.test(id)).sort();
    return done(100, ids.map((id) => `${id}: benchmark\n`).join(""));
  };
  const hyperfine = (argv: readonly string[]): ProcessResult => {
    const file = argv[argv.indexOf("--export-json") + 1] ?? "";
    const results: object[] = [];
    argv.forEach((a, i) => {
      if (a === "--command-name")
        results.push({
          command: argv[i + 1],
          mean: 0.01,
          stddev: 0.001,
          median: 0.01,
          min: 0.009,
          max: 0.011,
          times: [0.01, 0.009, 0.011],
          exit_codes: [0, 0, 0],
        });
    });
    writeFileSync(file, JSON.stringify({ results }));
    return done(results.length * each);
  };
  const harness = (argv: readonly string[]): ProcessResult => {
    const dir = argv[1] ?? "";
    const summary = {
      schema_version: 1,
      side: "base",
      round: 1,
      benchmarks: ["h/one", "h/two"].map((id) => ({
        id,
        suite: "harness",
        source: "custom",
        unit: "ns",
        direction: "smaller_is_better",
        estimates: { median: 100 },
      })),
    };
    writeFileSync(path.join(dir, "summary.json"), JSON.stringify(summary));
    return done(2 * each);
  };
  const proc = (argv: readonly string[], options: ProcessOptions): Promise<ProcessResult> => {
    const round = path.basename(options.logFile ?? "").replace(/\.log$/, "");
    const { cwd, env } = options;
    calls.push({ round, tool: argv[0] ?? "", argv, cwd, env, at: now });
    if (round === tools.interruptAt) {
      interrupts.abort("SIGTERM");
      return Promise.resolve({ ...done(1), exitCode: null, signal: "SIGTERM", aborted: true });
    }
    if (argv.includes("--list")) return Promise.resolve(list(argv));
    if (argv.includes("--save-baseline")) return Promise.resolve(criterion(argv, options));
    if (argv[0] === "hyperfine") return Promise.resolve(hyperfine(argv));
    return Promise.resolve(harness(argv));
  };
  const progress = new Progress((text) => lines.push(text), clock);
  const interrupts = new AbortController();
  now = tools.startMs ?? 0;
  // Every file the ingest reads, in order: how often an output was read.
  const reader: FileReader = {
    ...nodeFileReader,
    readText: (file, max) => {
      reads.push(file);
      return nodeFileReader.readText(file, max);
    },
  };
  const deps: RunDeps = {
    proc,
    services: nodeServices,
    dirs: nodeDirs,
    reader,
    writer: nodeFileWriter,
    clock,
    sha256: () => "0".repeat(64),
    env: {},
    signal: interrupts.signal,
    progress,
    environment: () => Promise.resolve({ fingerprint: "0123456789abcdef" }),
  };
  const looks: number[] = [];
  /** A fake look: after round k, the open ids are `open[k]` (empty or missing: all settled). */
  const planner =
    (open: Readonly<Record<number, readonly string[]>>): RoundPlanner =>
    (base: readonly SourcedSummary[], head: readonly SourcedSummary[]): NextRound => {
      expect(base.length).toBe(head.length);
      const k = base.length;
      looks.push(k);
      const active = new Set(open[k] ?? []);
      const settled = new Map<string, StopReason>(
        ALL.filter((id) => !active.has(id)).map((id) => [id, "ruled-out"]),
      );
      return { active, settled, line: `look after round ${k}: ${active.size} open` };
    };
  /** What a run of this scene is given. */
  const parts = (config: RunConfig, planNext?: RoundPlanner) => ({
    request: {
      repo: out,
      baseRef: "main~1",
      headRef: "main",
      out,
      toolsDir: path.join(out, "tools"),
      cacheDir: out,
      config,
      ...(planNext === undefined ? {} : { planNext }),
    },
    sides: {
      base: { worktree: path.join(out, "wt-base"), target: path.join(out, "t-base") },
      head: { worktree: path.join(out, "wt-head"), target: path.join(out, "t-head") },
    },
    commits: { base: "a".repeat(40), head: "b".repeat(40) },
    deps,
  });
  const run = (
    config: RunConfig,
    planNext?: RoundPlanner,
    options: {
      readonly initial?: RoundPlan;
      readonly pairs?: PairSetup;
      /** Each side's built Criterion executables, by suite (the same on both sides). */
      readonly binaries?: ReadonlyMap<string, BenchBinary>;
    } = {},
  ) => {
    const { request, sides, commits } = parts(config, planNext);
    const { binaries, ...rest } = options;
    const withBinaries = (side: SidePaths): SidePaths =>
      binaries === undefined ? side : { ...side, benchBinaries: binaries };
    const built = { base: withBinaries(sides.base), head: withBinaries(sides.head) };
    return runRounds(request, built, commits, deps, rest);
  };
  return {
    out,
    calls,
    lines,
    reads,
    looks,
    planner,
    run,
    parts,
    text: () => lines.join(""),
  };
}

/**
 * Scenes of one test file, in a temporary folder made before its tests and removed after them.
 */
export function sceneMaker(
  prefix: string,
): (name: string, tools?: FakeTools) => ReturnType<typeof scene> {
  let scratch = "";
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return (name, tools = {}) => scene(scratch, name, tools);
}

export const ids = (s: { summary: BenchSummary }): string[] =>
  s.summary.benchmarks.map((b) => b.id).sort();
