// runRounds (and base, head, base) under `schedule: suite` without cargo: the fake tools, clock
// and planner of test/support/fake-runner.ts. Files are real, in a temporary folder.
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { runBaseHeadBase } from "./base-head-base-steps.ts";
import {
  ALL,
  EVIL,
  FIB,
  SUM,
  fakeConfig as config,
  ids,
  sceneMaker,
  type Call,
} from "../../test/support/fake-runner.ts";

const scene = sceneMaker("benchgate-run-rounds-");

describe("runRounds stopped by a signal (fake tools)", () => {
  it("returns the rounds both sides completed; a side's summary of the cut-short round is removed", async () => {
    // schedule: suite, round 4 runs head first: head-4 is written, then base's cli is stopped.
    const s = scene("stopped", { interruptAt: "cli-base-4" });
    const result = await s.run(config({ rounds: 5 }));
    expect(result.stopped?.signal).toBe("SIGTERM");
    expect(result.stopped?.error.message).toMatch(
      /^interrupted during suite cli \(base, round 4\)/,
    );
    expect(result.rounds).toBe(3);
    expect(result.fullRound).toBe(3);
    for (const side of ["base", "head"] as const)
      expect(result.summaries[side].map((x) => x.summary.round)).toEqual([1, 2, 3]);
    expect(s.calls.some((c) => c.round === "cli-head-4")).toBe(true);
    expect(readdirSync(path.join(s.out, "summaries")).sort()).toEqual(
      ["base", "head"].flatMap((side) => [1, 2, 3].map((r) => `${side}-${r}.json`)),
    );
  });

  it("stopped in round 1: no complete round, nothing kept", async () => {
    const s = scene("stopped-early", { interruptAt: "micro-base-1" });
    const result = await s.run(config({ rounds: 5 }));
    expect(result.stopped?.signal).toBe("SIGTERM");
    expect(result.rounds).toBe(0);
    expect(result.summaries).toEqual({ base: [], head: [] });
  });
});

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
      /stopping after round 5: time budget: the next round would take ~4 s, 0 s of the 50 s budget left, and not one open benchmark fits \(estimated from each suite's latest run\); 2 benchmarks still open\n$/,
    );
    // Each round says how much of the budget is used and what is open.
    expect(s.text()).toContain(
      "round 1 · 0:14 of 0:50 used · 7 of 7 open (the first look is after round 3)\n",
    );
    expect(s.text()).toContain("round 4 · 0:46 of 0:50 used · 2 of 7 open\n");
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
    // Said once, after round 1: 3 rounds of 14 s cannot fit in 1 s.
    expect(
      s.text().match(/the first 3 rounds alone will take about 0:42 \(round 1 took 0:14\)/g),
    ).toHaveLength(1);
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
