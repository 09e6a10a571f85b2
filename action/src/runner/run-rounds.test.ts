// runRounds (and base, head, base) without cargo: a fake process port plays the tools (Criterion writes the captured
// fixture tree's benchmarks that its filter selects, hyperfine exports its commands, the custom
// harness writes a summary), a fake clock times them, and a fake planner stands in for the
// statistics core's look. Files are real, in a temporary folder.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { resolveRunConfig, type RunConfig } from "../config/run-config.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { NextRound, StopReason } from "../core/sequential.ts";
import { nodeDirs } from "../io/node-dirs.ts";
import { nodeFileReader, nodeFileWriter } from "../io/node-files.ts";
import { nodeServices } from "../io/node-services.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";
import type { ProcessOptions, ProcessResult } from "../ports/process.ts";
import { Progress } from "./progress.ts";
import type { RunDeps } from "./run-request.ts";
import { runRounds } from "./run-rounds.ts";
import { runBaseHeadBase } from "./base-head-base-steps.ts";
import type { RoundPlanner } from "./sequential-rounds.ts";

const CRITERION = path.join(FIXTURES, "criterion-0.8.2");
const EVIL = "evil|name `tick` <b>x</b> @someone #12";
const FIB = "fib 20";
const SUM = "sum_vec/1000";

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

/** Rust regex → JavaScript (see sequential-rounds.test.ts). */
function asJsRegExp(filter: string): RegExp {
  const js = filter
    .replace(/\\x\{([0-9A-F]+)\}/g, "\\u{$1}")
    .replace(/\\([#&~-])/g, (_, c: string) => (c === "-" ? "\\x2D" : c));
  return new RegExp(js, "u");
}

const SUITES: NonNullable<BenchgateConfig["suites"]> = [
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
const ALL = [FIB, SUM, EVIL, "help", "stats", "h/one", "h/two"].sort();

interface Call {
  readonly round: string;
  readonly tool: string;
  readonly argv: readonly string[];
}

let scratch: string;
let fixture: Map<string, string>;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-run-rounds-"));
  fixture = criterionFixture();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scene: the fake tools, clock and planner, and what they saw. */
function scene(name: string, tools: { msPerBenchmark?: number; lose?: string } = {}) {
  const out = path.join(scratch, name);
  mkdirSync(path.join(out, "summaries"), { recursive: true });
  let now = 0;
  const calls: Call[] = [];
  const lines: string[] = [];
  const clock = { now: () => now, date: () => new Date(Date.UTC(2026, 0, 1) + now) };
  const each = tools.msPerBenchmark ?? 1000;
  const done = (count: number): ProcessResult => {
    now += count * each;
    return {
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: "",
      stderrTail: "",
      durationMs: count * each,
    };
  };
  const proc = (argv: readonly string[], options: ProcessOptions): Promise<ProcessResult> => {
    const round = path.basename(options.logFile ?? "").replace(/\.log$/, "");
    calls.push({ round, tool: argv[0] ?? "", argv });
    if (argv[0] === "cargo") {
      const at = argv.indexOf("--save-baseline");
      const baseline = argv[at + 1] ?? "";
      const filter = argv[at + 2];
      const re = filter === undefined ? /(?:)/u : asJsRegExp(filter);
      const home = options.env["CRITERION_HOME"] ?? "";
      let count = 0;
      const late = Number(baseline.split("-")[1]) > 3;
      for (const [id, dir] of fixture)
        if (re.test(id) && !(late && id === tools.lose)) {
          cpSync(path.join(CRITERION, dir, "base"), path.join(home, dir, baseline), {
            recursive: true,
          });
          count++;
        }
      return Promise.resolve(done(count));
    }
    if (argv[0] === "hyperfine") {
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
      return Promise.resolve(done(results.length));
    }
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
    return Promise.resolve(done(2));
  };
  const progress = new Progress((text) => lines.push(text), clock);
  const deps: RunDeps = {
    proc,
    services: nodeServices,
    dirs: nodeDirs,
    reader: nodeFileReader,
    writer: nodeFileWriter,
    clock,
    sha256: () => "0".repeat(64),
    env: {},
    signal: new AbortController().signal,
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
  const run = (config: RunConfig, planNext?: RoundPlanner) => {
    const { request, sides, commits } = parts(config, planNext);
    return runRounds(request, sides, commits, deps);
  };
  return { out, calls, lines, looks, planner, run, parts, text: () => lines.join("") };
}

const config = (extra: Partial<BenchgateConfig>): RunConfig =>
  resolveRunConfig({ version: 1, suites: SUITES, ...extra }, "benchgate.yml", {
    needSuites: true,
  });

const ids = (s: { summary: BenchSummary }): string[] =>
  s.summary.benchmarks.map((b) => b.id).sort();

describe("runRounds with rounds: auto (fake tools and planner)", () => {
  it("after min-rounds runs only the open benchmarks, and stops when the look settles all", async () => {
    const s = scene("settles");
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 3, "max-rounds": 8 }),
      s.planner({ 3: [EVIL, "stats", "h/two"], 4: [EVIL], 5: [] }),
    );
    expect(result.rounds).toBe(5);
    expect(result.fullRound).toBe(3);
    expect(s.looks).toEqual([3, 4, 5]);
    for (const side of ["base", "head"] as const) {
      const summaries = result.summaries[side];
      expect(summaries.map((x) => x.summary.round)).toEqual([1, 2, 3, 4, 5]);
      for (const x of summaries.slice(0, 3)) expect(ids(x)).toEqual(ALL);
      // The custom harness runs whole, but the summary keeps only its open benchmark.
      expect(ids(summaries[3]!)).toEqual([EVIL, "h/two", "stats"].sort());
      expect(ids(summaries[4]!)).toEqual([EVIL]);
      for (const x of summaries) {
        expect(x.summary.sequential).toEqual({ min_rounds: 3, max_rounds: 8 });
        const file = JSON.parse(readFileSync(x.source, "utf8")) as BenchSummary;
        expect(file).toEqual(x.summary);
      }
    }
    expect(readdirSync(path.join(s.out, "summaries")).sort()).toEqual(
      ["base", "head"].flatMap((side) => [1, 2, 3, 4, 5].map((r) => `${side}-${r}.json`)),
    );
    // What ran: round 4 narrowed every suite, round 5 ran Criterion alone, with the exact id.
    const tools = (round: string) => s.calls.filter((c) => c.round.endsWith(round));
    expect(tools("base-4").map((c) => c.tool)).toEqual(["cargo", "hyperfine", "harness"]);
    expect(tools("base-5").map((c) => c.tool)).toEqual(["cargo"]);
    const filterOf = (c: Call | undefined) => c?.argv.at(-1);
    expect(filterOf(tools("micro-base-3")[0])).toBe("^(fib|sum_vec/1000$|evil)");
    expect(filterOf(tools("micro-head-5")[0])).toBe(
      "^(?:evil\\|name\\x{20}`tick`\\x{20}<b>x</b>\\x{20}@someone\\x{20}\\#12)$",
    );
    const hyperfine4 = tools("cli-head-4")[0]?.argv ?? [];
    expect(hyperfine4.filter((_, i) => hyperfine4[i - 1] === "--command-name")).toEqual(["stats"]);
    const text = s.text();
    expect(text).toContain("round 1 of 3–8 · base (first) · micro (criterion): 3 benchmarks");
    expect(text).toContain("look after round 3: 3 open");
    expect(text).toContain("round 4 runs micro, cli, harness\n");
    expect(text).toContain("round 5 runs micro; skipped (all settled): cli, harness\n");
    expect(text).toContain("look after round 5: 0 open");
    expect(text).toMatch(/stopping after round 5: every benchmark is settled\n$/);
  });

  it("stops at max-rounds without a look after the last round, and says how many are open", async () => {
    const s = scene("max");
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 2, "max-rounds": 4 }),
      s.planner({ 2: ["h/one"], 3: ["h/one"] }),
    );
    expect(result.rounds).toBe(4);
    expect(result.fullRound).toBe(2);
    expect(s.looks).toEqual([2, 3]);
    expect(result.summaries.head.map(ids)).toEqual([ALL, ALL, ["h/one"], ["h/one"]]);
    expect(s.text()).toMatch(
      /stopping after round 4: max-rounds reached, 1 benchmark still open\n$/,
    );
  });

  it("min-rounds = max-rounds: every round whole, no look, the design still recorded", async () => {
    const s = scene("min-is-max");
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 2, "max-rounds": 2 }),
      s.planner({}),
    );
    expect(result.rounds).toBe(2);
    expect(result.fullRound).toBe(2);
    expect(s.looks).toEqual([]);
    expect(result.summaries.base.map((x) => x.summary.sequential)).toEqual([
      { min_rounds: 2, max_rounds: 2 },
      { min_rounds: 2, max_rounds: 2 },
    ]);
  });

  it("stops before a round the time budget cannot hold, estimated from each suite's latest run", async () => {
    // Each benchmark takes 1 s per side: a full round is 2 × 7 = 14 s.
    const s = scene("budget");
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 3, "max-rounds": 10, "time-budget": "50s" }),
      s.planner({ 3: [EVIL, "stats"], 4: [EVIL, "stats"], 5: [EVIL, "stats"] }),
    );
    // 3 full rounds: 42 s. Round 4 runs Criterion (1 of 3 open: 2 s) and hyperfine (1 of 2:
    // 2 s) = 4 s, to 46 s. Round 5 would end at 50 s: fits. Round 6 would end at 54 s.
    expect(result.rounds).toBe(5);
    expect(s.looks).toEqual([3, 4, 5]);
    expect(s.text()).toMatch(
      /stopping after round 5: time budget: the next round would take ~4 s, 0 s of the 50 s budget left \(estimated from each suite's latest run\); 2 benchmarks still open\n$/,
    );
  });

  it("the first min-rounds rounds run even past the time budget", async () => {
    const s = scene("budget-min");
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 3, "max-rounds": 10, "time-budget": "1s" }),
      s.planner({ 3: [EVIL] }),
    );
    expect(result.rounds).toBe(3);
    expect(s.text()).toContain(
      "stopping after round 3: time budget: the next round would take ~2 s, 0 s of the 1 s budget left",
    );
  });

  it("without a planner, rounds: auto is an internal error", async () => {
    const s = scene("no-planner");
    await expect(s.run(config({ rounds: "auto" }))).rejects.toThrow(/needs a planner/);
  });
});

describe("runRounds: an open benchmark the tool did not produce again", () => {
  it("is a warning naming it, not a silent gap", async () => {
    const s = scene("lost", { lose: SUM });
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 3, "max-rounds": 4 }),
      s.planner({ 3: [SUM, FIB] }),
    );
    expect(result.summaries.base.map(ids)[3]).toEqual([FIB]);
    expect(s.text()).toContain(
      `warning: round 4 of 3–4 · base: 1 open benchmark missing from this round's output ("${SUM}")`,
    );
  });
});

describe("runRounds with a fixed count", () => {
  it("runs every suite in every round, no look, no sequential block", async () => {
    const s = scene("fixed");
    const result = await s.run(config({ rounds: 2 }));
    expect(result.rounds).toBe(2);
    expect(result.fullRound).toBe(2);
    expect(result.summaries.base.map(ids)).toEqual([ALL, ALL]);
    expect(result.summaries.head.every((x) => !("sequential" in x.summary))).toBe(true);
    expect(s.text()).toContain("round 2/2 · head (first) · cli (hyperfine): 2 benchmarks");
    expect(s.text()).not.toContain("stopping");
  });
});

describe("runBaseHeadBase (--aba)", () => {
  it("runs every suite on base, head, base, saved as base rounds 1 and 2 and head round 1", async () => {
    const s = scene("aba");
    const { request, sides, commits, deps } = s.parts(config({ rounds: 1 }));
    const result = await runBaseHeadBase({ ...request, aba: true }, sides, commits, deps);
    expect(result.rounds).toBe(2);
    expect(result.fullRound).toBe(1);
    expect(result.summaries.base.map((x) => x.summary.round)).toEqual([1, 2]);
    expect(result.summaries.head.map((x) => x.summary.round)).toEqual([1]);
    for (const x of [...result.summaries.base, ...result.summaries.head])
      expect(ids(x)).toEqual(ALL);
    expect(readdirSync(path.join(s.out, "summaries")).sort()).toEqual([
      "base-1.json",
      "base-2.json",
      "head-1.json",
    ]);
    // One process per suite per step, in the steps' order.
    const order = [...new Set(s.calls.map((c) => c.round.split("-").slice(-2).join("-")))];
    expect(order).toEqual(["base-1", "head-1", "base-2"]);
    expect(s.calls.map((c) => c.tool)).toEqual(
      Array.from({ length: 3 }, () => ["cargo", "hyperfine", "harness"]).flat(),
    );
    // The fake clock runs on: each summary ends before the next begins.
    const [b1, b2] = result.summaries.base.map((x) => x.summary);
    const h1 = result.summaries.head[0]?.summary;
    expect(b1!.finished_at! <= h1!.started_at!).toBe(true);
    expect(h1!.finished_at! <= b2!.started_at!).toBe(true);
    const text = s.text();
    expect(text).toContain("base (1/2) · micro (criterion): 3 benchmarks in 3.0 s\n");
    expect(text).toContain("head · cli (hyperfine): 2 benchmarks in 2.0 s\n");
    expect(text).toContain("base (2/2) · harness (custom): 2 benchmarks in 2.0 s\n");
    expect(text).toContain("base (1/2) done in 0:07, about 0:14 left\n");
    expect(text).toMatch(/base \(2\/2\) done in 0:07\n$/);
    expect(text).not.toContain("round");
  });

  it("refuses a config with rounds or sequential rounds: the plan should have set one run", async () => {
    const s = scene("aba-rounds");
    for (const extra of [{ rounds: 2 }, { rounds: "auto" as const }]) {
      const { request, sides, commits, deps } = s.parts(config(extra));
      await expect(
        runBaseHeadBase({ ...request, aba: true }, sides, commits, deps),
      ).rejects.toThrow(/internal error: base, head, base runs each step once/);
    }
  });
});
