import { describe, expect, it } from "vitest";
import { compare } from "./compare-summaries.ts";
import { resolveSettings } from "./settings.ts";
import type { SourcedSummary } from "./pairing.ts";
import { lookWeight, planNextRound, type SequentialDesign } from "./sequential.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";
import { simulateSequential, type SequentialRun } from "../../test/support/sequential-run.ts";

const settings = resolveSettings();

function declare(files: readonly SourcedSummary[], d: SequentialDesign): SourcedSummary[] {
  return files.map((f) => ({
    ...f,
    summary: { ...f.summary, sequential: { min_rounds: d.minRounds, max_rounds: d.maxRounds } },
  }));
}

function scaleHead(
  files: readonly SourcedSummary[],
  factor: (id: string) => number,
): SourcedSummary[] {
  return scaleSamples(files, (_, id) => factor(id));
}

/** What a `rounds: auto` run measures: from min on, each round only the open benchmarks. */
function simulate(
  s: { base: SourcedSummary[]; head: SourcedSummary[] },
  d: SequentialDesign,
): SequentialRun {
  return simulateSequential({ base: declare(s.base, d), head: declare(s.head, d) }, d, settings);
}

describe("lookWeight", () => {
  it("spends the whole error rate over the looks min…max, most of it early", () => {
    const d = { minRounds: 3, maxRounds: 15 };
    let total = 0;
    for (let k = 3; k <= 15; k++) total += lookWeight(d, k);
    expect(total).toBeCloseTo(1, 10);
    expect(lookWeight(d, 3)).toBeGreaterThan(lookWeight(d, 4));
    expect(lookWeight(d, 4)).toBeGreaterThan(lookWeight(d, 15));
  });
});

describe("sequential rounds", () => {
  const d = { minRounds: 3, maxRounds: 10 };

  it("stops a clear regression and the quiet unchanged benchmarks early", () => {
    const s = syntheticSuite({ benchmarks: 20, rounds: 10, samples: 10, noise: 0.004, seed: 71 });
    const data = {
      base: s.base,
      head: scaleHead(s.head, (id) => (id === "group/bench-2" ? 3 : 1)),
    };
    const run = simulate(data, d);
    expect(run.lines[0]).toMatch(/^after round 3: \d+ of 20 benchmarks still open \(.*1 regressed/);
    const report = compare(run.base, run.head, { settings });
    expect(report.settings.design).toMatchObject({
      kind: "sequential",
      min_rounds: 3,
      max_rounds: 10,
    });
    const regressed = report.benchmarks.filter((e) => e.verdict === "regressed");
    expect(regressed.map((e) => e.id)).toEqual(["group/bench-2"]);
    expect(regressed[0]!.stopped).toEqual({ reason: "regressed", after_round: 3 });
    const spent = report.benchmarks.reduce((n, e) => n + e.stopped!.after_round, 0);
    expect(spent).toBeLessThan(0.6 * 20 * 10);
    // compare on every recorded round gives the same answer: later rounds of a settled
    // benchmark are ignored.
    const full = compare(declare(data.base, d), declare(data.head, d), { settings });
    expect(full.benchmarks.map((e) => [e.id, e.verdict, e.stopped])).toEqual(
      report.benchmarks.map((e) => [e.id, e.verdict, e.stopped]),
    );
  });

  it("stops benchmarks that max rounds could not settle on a noisy machine (futility)", () => {
    const s = syntheticSuite({ benchmarks: 30, rounds: 10, samples: 10, noise: 0.2, seed: 72 });
    const run = simulate(s, d);
    const report = compare(run.base, run.head, { settings });
    expect(report.counts.regressed).toBe(0);
    const reasons = report.benchmarks.map((e) => e.stopped!.reason);
    expect(reasons.filter((r) => r === "futile").length).toBeGreaterThan(15);
    for (const e of report.benchmarks)
      if (e.stopped!.reason === "futile") expect(e.verdict).toBe("inconclusive");
  });

  it("stops none as futile before the median of its rounds can judge it, when max rounds reach it", () => {
    // The same noisy suite with max 16: the last look would judge by the median of 12+ rounds,
    // which today's mean-based projection cannot speak for.
    const long: SequentialDesign = { minRounds: 3, maxRounds: 16 };
    const s = syntheticSuite({ benchmarks: 30, rounds: 16, samples: 10, noise: 0.2, seed: 72 });
    const run = simulate(s, long);
    const report = compare(run.base, run.head, { settings });
    for (const e of report.benchmarks)
      if (e.stopped!.reason === "futile") expect(e.rounds).toBeGreaterThanOrEqual(12);
    // With the median off, futility judges from the first look as before.
    const mean = resolveSettings({ robust: false });
    const early = compare(run.base, run.head, { settings: mean });
    expect(early.benchmarks.some((e) => e.stopped!.reason === "futile" && e.rounds < 12)).toBe(
      true,
    );
  });

  it("keeps no round going for a secondary series alone", () => {
    // Every primary benchmark ×3 slower (settled at the first look); bench-0 is a secondary
    // series (a server's peak memory beside its load) that stays open.
    const long: SequentialDesign = { minRounds: 3, maxRounds: 16 };
    const s = syntheticSuite({ benchmarks: 12, rounds: 3, samples: 10, noise: 0.01, seed: 5 });
    const mark = (files: readonly SourcedSummary[]): SourcedSummary[] =>
      declare(files, long).map((f) => ({
        ...f,
        summary: {
          ...f.summary,
          benchmarks: f.summary.benchmarks.map((b) =>
            b.id === "group/bench-0" ? { ...b, secondary: true } : b,
          ),
        },
      }));
    const head = scaleHead(s.head, (id) => (id === "group/bench-0" ? 1.02 : 3));
    const next = planNextRound(mark(s.base), mark(head), settings, long);
    expect(next.settled.get("group/bench-0")).toBeUndefined();
    expect([...next.active]).toEqual([]);
  });

  it("says out of time for benchmarks still open when the rounds end before max", () => {
    const s = syntheticSuite({ benchmarks: 12, rounds: 4, samples: 10, noise: 0.05, seed: 73 });
    const report = compare(declare(s.base, d), declare(s.head, d), { settings });
    const open = report.benchmarks.filter((e) => e.stopped!.reason === "time-budget");
    for (const e of open) expect(e.stopped!.after_round).toBe(4);
  });

  it("says out of time for open benchmarks the budget left out of the last round", () => {
    // Round 5 ran only the cheapest open benchmarks that fit in the budget (next-round.ts);
    // the others stopped after round 4. Without a budget the runner measures every open
    // benchmark, so one missing from a later round was not measured for another reason.
    const long: SequentialDesign = { minRounds: 3, maxRounds: 16 };
    const s = syntheticSuite({ benchmarks: 12, rounds: 5, samples: 10, noise: 0.05, seed: 75 });
    const cut = (files: readonly SourcedSummary[], budget: number | undefined): SourcedSummary[] =>
      declare(files, long).map((f) => ({
        ...f,
        summary: {
          ...f.summary,
          sequential: {
            min_rounds: 3,
            max_rounds: 16,
            ...(budget === undefined ? {} : { time_budget_ms: budget }),
          },
          benchmarks:
            f.summary.round < 5
              ? f.summary.benchmarks
              : f.summary.benchmarks.filter((b) => b.id === "group/bench-0"),
        },
      }));
    const stops = (budget: number | undefined): Map<string, string> => {
      const report = compare(cut(s.base, budget), cut(s.head, budget), { settings });
      return new Map(
        report.benchmarks
          .filter((e) => e.id !== "group/bench-0" && e.stopped?.after_round === 4)
          .filter((e) => ["time-budget", "not-measured"].includes(e.stopped?.reason ?? ""))
          .map((e) => [e.id, e.stopped?.reason ?? ""]),
      );
    };
    const budgeted = stops(900_000);
    const unbudgeted = stops(undefined);
    expect(budgeted.size).toBeGreaterThan(0);
    expect(new Set(budgeted.values())).toEqual(new Set(["time-budget"]));
    expect([...unbudgeted.keys()]).toEqual([...budgeted.keys()]);
    expect(new Set(unbudgeted.values())).toEqual(new Set(["not-measured"]));
  });

  it("keeps a regression settled at a look regressed in the final report", () => {
    const s = syntheticSuite({ benchmarks: 40, rounds: 10, samples: 10, noise: 0.03, seed: 74 });
    const slowed = new Set(["group/bench-1", "group/bench-5", "group/bench-9", "group/bench-13"]);
    const data = { base: s.base, head: scaleHead(s.head, (id) => (slowed.has(id) ? 1.5 : 1)) };
    const run = simulate(data, d);
    const report = compare(run.base, run.head, { settings });
    for (const e of report.benchmarks)
      if (e.stopped!.reason === "regressed") expect(e.verdict).toBe("regressed");
    for (const e of report.benchmarks)
      if (e.verdict === "regressed") expect(slowed.has(e.id)).toBe(true);
  });
});
