// Rounds under `schedule: pairs` without cargo: the fake tools, clock and planner of
// test/support/fake-runner.ts. Each unit's base and head processes back to back, one Criterion
// benchmark per process by its exact id, the short time flags only where the suite did not set
// its own, one read of each side's Criterion baseline per round, the in-code-times warning once,
// and the time budget counted from the start of the run with a partial last round.
import { describe, expect, it } from "vitest";
import { exactIdFilter } from "../config/suites/criterion/exact-id-filter.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import {
  ALL,
  EVIL,
  FIB,
  MICRO_IDS,
  SUITES,
  SUM,
  fakeConfig,
  ids,
  sceneMaker,
  type Call,
} from "../../test/support/fake-runner.ts";
import type { PairSetup } from "./pair-units.ts";
import { contentionOf } from "../core/contention.ts";

const scene = sceneMaker("benchgate-pair-round-");
const config = (extra: Partial<BenchgateConfig>) => fakeConfig({ schedule: "pairs", ...extra });
const SETUP: PairSetup = {
  listed: new Map([["micro", MICRO_IDS]]),
  together: [],
  wholeSeconds: new Set(),
};
const pairs = (setup: Partial<PairSetup> = {}) => ({ pairs: { ...SETUP, ...setup } });

/** "micro base 1" for a call whose log is micro-base-1.log. */
const who = (c: Call): string => c.round.split("-").join(" ");
/** The value after `flag` in each of these calls' argv. */
const valuesOf = (calls: readonly Call[], flag: string): (string | undefined)[] =>
  calls.map((c) => {
    const at = c.argv.indexOf(flag);
    return at < 0 ? undefined : c.argv[at + 1];
  });
const criterionCalls = (s: { calls: Call[] }): Call[] =>
  s.calls.filter((c) => c.argv.includes("--save-baseline"));

describe("schedule: pairs (fake tools)", () => {
  it("runs each benchmark's base and head processes back to back, base first in odd rounds", async () => {
    const s = scene("order");
    const result = await s.run(config({ rounds: 2 }), undefined, pairs());
    expect(result.rounds).toBe(2);
    const round1 = ["micro", "micro", "micro", "cli", "cli", "harness"].flatMap((suite) => [
      `${suite} base 1`,
      `${suite} head 1`,
    ]);
    const round2 = round1.map((x) =>
      x.replace(/(base|head) 1/, (m) => (m.startsWith("base") ? "head 2" : "base 2")),
    );
    expect(s.calls.map(who)).toEqual([...round1, ...round2]);
    // One Criterion benchmark per process, by its exact id, in the listing's order.
    const filters = criterionCalls(s).map((c) => c.argv.at(-1));
    const each = MICRO_IDS.flatMap((id) => [exactIdFilter([id]), exactIdFilter([id])]);
    expect(filters).toEqual([...each, ...each]);
    // One hyperfine command per process, each exported to a file of its own.
    const hyperfine = s.calls.filter((c) => c.tool === "hyperfine");
    expect(
      hyperfine.map((c) => c.argv.filter((_, i) => c.argv[i - 1] === "--command-name")),
    ).toEqual([["help"], ["help"], ["stats"], ["stats"], ["help"], ["help"], ["stats"], ["stats"]]);
    expect(new Set(valuesOf(hyperfine, "--export-json")).size).toBe(8);
    // The same two summaries per round as schedule: suite, started in the round's order.
    for (const side of ["base", "head"] as const)
      expect(result.summaries[side].map(ids)).toEqual([ALL, ALL]);
    const started = (side: "base" | "head", r: number) =>
      result.summaries[side][r - 1]?.summary.started_at ?? "";
    expect(started("base", 1) < started("head", 1)).toBe(true);
    expect(started("head", 2) < started("base", 2)).toBe(true);
    expect(s.text()).toContain(
      "round 1/2 · base (first) · micro (criterion): 3 benchmarks in 3.0 s\n",
    );
    expect(s.text()).toContain(
      "round 2/2 · head (first) · cli (hyperfine): 2 benchmarks in 2.0 s\n",
    );
  });

  it("records each benchmark's own process (wall and CPU time) for the contention count", async () => {
    // The process measuring `fib` in head's round 2 got half a CPU: a busy moment.
    const busy = (argv: readonly string[]): number =>
      argv.includes("head-2") && argv.at(-1) === exactIdFilter([FIB]) ? 0.5 : 0.95;
    const s = scene("process", { cpuShare: busy });
    const result = await s.run(config({ rounds: 2 }), undefined, pairs());
    const head2 = result.summaries.head[1]?.summary.benchmarks ?? [];
    const micro = head2.filter((b) => b.suite === "micro");
    expect(micro.map((b) => [b.id, b.process])).toEqual(
      MICRO_IDS.map((id) => [id, { wall_ms: 1000, cpu_ms: id === FIB ? 500 : 950 }]),
    );
    const all = [...result.summaries.base, ...result.summaries.head];
    expect(contentionOf(all)?.contended).toBe(1);
  });

  it("keeps benchmarks compared on one side (a claim's pair) in one process", async () => {
    const s = scene("together");
    await s.run(config({ rounds: 1 }), undefined, pairs({ together: [[SUM, FIB]] }));
    expect(criterionCalls(s).map((c) => c.argv.at(-1))).toEqual([
      exactIdFilter([EVIL]),
      exactIdFilter([EVIL]),
      exactIdFilter([FIB, SUM]),
      exactIdFilter([FIB, SUM]),
    ]);
  });

  it("reads each side's Criterion baseline once per round, not once per process", async () => {
    const s = scene("one-read");
    await s.run(config({ rounds: 2 }), undefined, pairs());
    for (const baseline of ["base-1", "head-1", "base-2", "head-2"]) {
      const estimates = s.reads.filter((f) => f.endsWith(`/${baseline}/estimates.json`));
      // Three benchmarks, each read once: per-process reads would read the first one three times.
      expect(estimates, baseline).toHaveLength(3);
      expect(new Set(estimates).size, baseline).toBe(3);
    }
  });

  it("adds the short time flags only where the suite's own settings do not set them", async () => {
    const own = structuredClone(SUITES);
    own[0] = { ...own[0], args: ["--measurement-time", "3"] } as (typeof own)[0];
    own[1] = { ...own[1], runs: 5 } as (typeof own)[1];
    const s = scene("flags");
    await s.run(config({ rounds: 1, suites: own }), undefined, pairs());
    const micro = criterionCalls(s);
    expect(valuesOf(micro, "--warm-up-time")).toEqual(micro.map(() => "0.2"));
    expect(valuesOf(micro, "--sample-size")).toEqual(micro.map(() => "10"));
    expect(micro.map((c) => c.argv.filter((a) => a === "--measurement-time").length)).toEqual(
      micro.map(() => 1),
    );
    expect(valuesOf(micro, "--measurement-time")).toEqual(micro.map(() => "3"));
    const cli = s.calls.filter((c) => c.tool === "hyperfine");
    expect(valuesOf(cli, "--warmup")).toEqual(cli.map(() => "1"));
    expect(valuesOf(cli, "--runs")).toEqual(cli.map(() => "5"));

    const plain = scene("flags-default");
    await plain.run(config({ rounds: 1, suites: SUITES }), undefined, pairs());
    expect(valuesOf(criterionCalls(plain), "--measurement-time")[0]).toBe("0.5");
    expect(
      valuesOf(
        plain.calls.filter((c) => c.tool === "hyperfine"),
        "--runs",
      )[0],
    ).toBe("10");
  });

  it("gives Criterion before 0.4 whole seconds", async () => {
    const s = scene("whole-seconds");
    await s.run(config({ rounds: 1 }), undefined, pairs({ wholeSeconds: new Set(["micro"]) }));
    const micro = criterionCalls(s);
    expect(valuesOf(micro, "--warm-up-time")).toEqual(micro.map(() => "1"));
    expect(valuesOf(micro, "--measurement-time")).toEqual(micro.map(() => "1"));
  });

  it("runs the built bench executable as cargo does: --bench, in its package's folder", async () => {
    const s = scene("binary");
    const binary = { executable: "/t/release/deps/tiny-0123", cwd: "/wt/crates/tiny" };
    await s.run(config({ rounds: 1 }), undefined, {
      ...pairs(),
      binaries: new Map([["micro", binary]]),
    });
    for (const c of criterionCalls(s)) {
      expect(c.argv.slice(0, 2)).toEqual([binary.executable, "--bench"]);
      expect(c.cwd).toBe(binary.cwd);
      expect(c.env["CARGO_MANIFEST_DIR"]).toBe(binary.cwd);
    }
    expect(s.calls.filter((c) => c.tool === "hyperfine")).toHaveLength(4);
  });

  it("says once which benchmarks take far longer per process than the short times allow", async () => {
    // FIB's processes take 4 s more each: its code sets its own measurement time.
    const s = scene("in-code", { slow: new Map([[FIB, 4000]]) });
    await s.run(config({ rounds: 3 }), undefined, pairs());
    const warnings = s
      .text()
      .match(/warning: 1 Criterion benchmark took several times longer[^\n]*/g);
    expect(warnings).toHaveLength(1);
    expect(warnings?.[0]).toContain(`("${FIB}")`);
    expect(warnings?.[0]).toContain("remove those settings from the bench code");
  });
});

describe("schedule: pairs with rounds: auto and a time budget", () => {
  it("counts the builds, says the budget used and what is open after each round", async () => {
    // 60 s of checkouts and builds before round 1; a full round is 14 s (7 benchmarks × 2).
    const s = scene("budget-builds", { startMs: 60_000 });
    const result = await s.run(
      config({ rounds: "auto", "min-rounds": 2, "max-rounds": 10, "time-budget": "95s" }),
      s.planner({ 2: [EVIL, "stats"], 3: [EVIL, "stats"], 4: [EVIL, "stats"] }),
      pairs(),
    );
    // 60 + 2 × 14 = 88 s; round 3 (EVIL and stats, 2 s each) ends at 92 s; round 4 would end
    // at 96 s and only one of the two fits in the 3 s left: the last round runs one benchmark.
    const text = s.text();
    expect(text).toContain(
      "round 1 · 1:14 of 1:35 used · 7 of 7 open (the first look is after round 2)\n",
    );
    expect(text).toContain("round 2 · 1:28 of 1:35 used · 2 of 7 open\n");
    expect(text).toContain(
      `round 4 runs 1 of the 2 open benchmarks (~0:02): those the 0:03 left can settle, first those that could fail the gate ("${EVIL}"); the other 1 stop here, out of time\n`,
    );
    expect(text).toContain(
      "round 4 runs micro; skipped (settled, or left out by the time budget): cli, harness\n",
    );
    expect(result.rounds).toBe(4);
    expect(result.summaries.base.map(ids)[3]).toHaveLength(1);
    expect(text).toMatch(
      /stopping after round 4: time budget: the next round would take ~\d+ s, 1 s of the 95 s budget left, and not one open benchmark fits \(estimated from each benchmark's latest pair of processes\)/,
    );
  });
});

describe("schedule: pairs on a shard", () => {
  it("runs only the shard's benchmarks, each in pairs, and its whole suites as one unit", async () => {
    const s = scene("shard");
    const [micro, cli, harness] = fakeConfig({ schedule: "pairs" }).suites;
    const initial = {
      suites: [
        { ...micro!, filter: exactIdFilter([FIB]) } as typeof micro & {},
        { ...cli!, commands: [{ name: "stats", command: "demo stats" }] } as typeof cli & {},
        harness!,
      ],
      active: new Set([FIB, "stats"]),
      whole: new Set(["harness"]),
    };
    const result = await s.run(config({ rounds: 1 }), undefined, { ...pairs(), initial });
    expect(s.calls.map(who)).toEqual(
      ["micro", "cli", "harness"].flatMap((suite) => [`${suite} base 1`, `${suite} head 1`]),
    );
    expect(result.summaries.head.map(ids)).toEqual([[FIB, "h/one", "h/two", "stats"]]);
  });
});
