// One run per side with the noise learnt elsewhere (docs/statistics.md §14): from the default
// branch's history (compare --history) or from base, head, base in one job (--aba). Seeded
// synthetic suites whose noise is known, so each assertion has a right answer.
import { describe, expect, it } from "vitest";
import { compare } from "../src/core/compare-summaries.ts";
import { resolveSettings } from "../src/core/settings.ts";
import type { SourcedSummary } from "../src/core/pairing.ts";
import { estimateHistoryNoise } from "../src/history/estimate-history-noise.ts";
import { validateReport } from "../src/schemas/validate-document.ts";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import {
  recordSha,
  singleRunHistory,
  type SingleRunHistoryOptions,
} from "./support/single-run-history.ts";
import { scaleSamples, syntheticSuite } from "./support/synthetic.ts";

const settings = resolveSettings();
const FINGERPRINT = "ab".repeat(8);

/** Regressed by the single-run rule that a history never weakens, not by the history's test. */
function byFloor(e: { verdict: string; notes: readonly string[] }): boolean {
  return e.verdict === "regressed" && e.notes.some((n) => /failed by the single-run rule/.test(n));
}

/** Runs of a synthetic suite (its summaries) as single-run default-branch records. */
function historyOf(
  files: readonly SourcedSummary[],
  options: SingleRunHistoryOptions = {},
): BenchHistory {
  return singleRunHistory(
    files.map((f) => f.summary),
    options,
  );
}

/** A suite of `runs` + 1 rounds: the first `runs` base runs are the history, the last pair the PR. */
function scenario(
  seed: number,
  spec: { noise: number; scale?: (i: number) => number; runs?: number },
) {
  const runs = spec.runs ?? 30;
  const s = syntheticSuite({
    benchmarks: 20,
    rounds: runs + 1,
    samples: 9,
    noise: spec.noise,
    seed,
    ...(spec.scale === undefined ? {} : { scale: spec.scale }),
  });
  const history = historyOf(s.base.slice(0, runs));
  return { history, base: s.base.slice(runs), head: s.head.slice(runs) };
}

describe("one run per side, noise from the history", () => {
  it("tests every benchmark against its history's noise and says so", () => {
    const { history, base, head } = scenario(1, { noise: 0.02 });
    const noise = estimateHistoryNoise(history, { fingerprint: undefined });
    expect(noise.series.size).toBe(20);
    const report = validateReport(compare(base, head, { settings, noise }), "report");
    expect(report.mode).toBe("history");
    expect(report.settings.method).toMatch(/history/);
    expect(report.benchmarks.every((e) => !e.unverified && e.p !== null && e.mde !== null)).toBe(
      true,
    );
    expect(report.noise.history).toMatchObject({
      commits: 30,
      first: recordSha(1),
      last: recordSha(30),
      benchmarks: 20,
      without: 0,
      median_records: 30,
    });
    expect(report.benchmarks[0]?.notes.join(" ")).toMatch(/30 history records/);
  });

  it("raises few false alarms of its own on unchanged code, and fails only what the single-run rule fails (A/A over 40 seeds)", () => {
    let failedByHistory = 0;
    let flaggedByHistory = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { history, base, head } = scenario(seed, { noise: 0.03 });
      const noise = estimateHistoryNoise(history, { fingerprint: undefined });
      const report = compare(base, head, { settings, noise });
      const alone = compare(base, head, { settings });
      const own = report.benchmarks.filter((e) => e.verdict === "regressed" && !byFloor(e));
      if (own.length > 0) failedByHistory++;
      flaggedByHistory += own.length;
      // Every regression the floor adds is one the gate without a history fails too.
      for (const e of report.benchmarks.filter(byFloor))
        expect(alone.benchmarks.find((a) => a.id === e.id)?.verdict).toBe("regressed");
    }
    // q = 5 % bounds the expected share of false discoveries; with nothing to discover, the
    // share of comparisons the history's test fails is at most q.
    expect(failedByHistory).toBeLessThanOrEqual(2);
    expect(flaggedByHistory).toBeLessThanOrEqual(4);
  });

  it("finds ×2 on a quarter of the suite and nothing else", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { history, base, head } = scenario(seed, {
        noise: 0.03,
        scale: (i) => (i < 5 ? 2 : 1),
      });
      const noise = estimateHistoryNoise(history, { fingerprint: undefined });
      const report = compare(base, head, { settings, noise });
      const regressed = report.benchmarks
        .filter((e) => e.verdict === "regressed" && !byFloor(e))
        .map((e) => e.id);
      expect(regressed.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `group/bench-${i}`));
      expect(report.verdict).toBe("fail");
    }
  });

  it("scales the variances up when this job is noisier than its history", () => {
    // History from a quiet machine (1 %), the PR's pair from a noisy one (8 %).
    const quiet = syntheticSuite({ benchmarks: 20, rounds: 30, samples: 9, noise: 0.01, seed: 7 });
    const noisy = syntheticSuite({ benchmarks: 20, rounds: 1, samples: 9, noise: 0.08, seed: 7 });
    const noise = estimateHistoryNoise(historyOf(quiet.base), { fingerprint: undefined });
    const report = compare(noisy.base, noisy.head, { settings, noise });
    expect(report.noise.history?.inflation).toBeGreaterThan(4);
    // Nothing the history's test confirms; what the single-run rule fails on its own stays failed.
    expect(report.benchmarks.filter((e) => e.verdict === "regressed" && !byFloor(e))).toEqual([]);
    expect(report.benchmarks[0]?.notes.join(" ")).toMatch(/wider than the history/);
  });

  it("sets aside runs in which the whole suite landed far off, names them, and still finds a lone +30 %", () => {
    // Now and then a run lands +30 % off for every benchmark, as on a busy shared machine: here
    // two runs of the 30. Taken in as noise they would widen every variance until a lone +30 %
    // hides; they are set aside as disturbed jobs instead (core/outlier-fence.ts).
    const s = syntheticSuite({ benchmarks: 20, rounds: 31, samples: 9, noise: 0.01, seed: 21 });
    const spiky = scaleSamples(s.base.slice(0, 30), (round) =>
      round === 7 || round === 22 ? 1.3 : 1,
    );
    const noise = estimateHistoryNoise(historyOf(spiky), { fingerprint: undefined });
    expect(noise.setAside.records.map((r) => [r.sha, r.outside, r.of])).toEqual([
      [recordSha(7), 20, 20],
      [recordSha(22), 20, 20],
    ]);
    expect(noise.setAside.records[0]?.ratio).toBeCloseTo(1.3, 1);
    expect(noise.setAside.values).toEqual([]);
    expect([...noise.series.values()].every((n) => n.records === 28)).toBe(true);
    const head = scaleSamples(s.head.slice(30), (_, id) => (id === "group/bench-0" ? 1.3 : 1));
    const report = validateReport(compare(s.base.slice(30), head, { settings, noise }), "r");
    const first = report.benchmarks[0] as (typeof report.benchmarks)[number];
    // The history's own test confirms it, not only the single-run rule.
    expect(first.verdict).toBe("regressed");
    expect(byFloor(first)).toBe(false);
    expect(report.noise.history?.set_aside?.records).toHaveLength(2);
  });

  it("leaves benchmarks without history unverified, and ignores history when rounds repeat", () => {
    const { history, base, head } = scenario(3, { noise: 0.02 });
    const fewer: BenchHistory = { ...history, series: history.series.slice(0, 15) };
    fewer.commits = history.commits.map((c) => ({ ...c, results: c.results.slice(0, 15) }));
    const noise = estimateHistoryNoise(fewer, { fingerprint: undefined });
    const report = validateReport(compare(base, head, { settings, noise }), "report");
    expect(report.mode).toBe("history");
    expect(report.benchmarks.filter((e) => e.unverified)).toHaveLength(5);
    expect(report.noise.history).toMatchObject({ benchmarks: 15, without: 5 });
    expect(report.reasons.join(" ")).toMatch(/5 benchmarks without history on this runner/);

    const rounds = syntheticSuite({ benchmarks: 20, rounds: 3, samples: 9, noise: 0.02, seed: 3 });
    const paired = compare(rounds.base, rounds.head, { settings, noise });
    expect(paired.mode).toBe("rounds");
    expect(paired.noise.history).toBeUndefined();
  });
});

describe("which history records count", () => {
  const s = syntheticSuite({ benchmarks: 3, rounds: 40, samples: 5, noise: 0.02, seed: 5 });

  it("only single runs on the same runner, since the last change point, at most the window", () => {
    const mine = historyOf(s.base.slice(0, 30), { fingerprint: FINGERPRINT });
    const other = historyOf(s.base.slice(30, 40), { fingerprint: "cd".repeat(8) });
    const mixed: BenchHistory = {
      ...mine,
      commits: [
        ...mine.commits,
        ...other.commits.map((c, i) => ({ ...c, sha: recordSha(100 + i) })),
      ],
    };
    const noise = estimateHistoryNoise(mixed, { fingerprint: FINGERPRINT });
    expect(noise.basis).toMatchObject({ commits: 30, first: recordSha(1), last: recordSha(30) });
    expect([...noise.series.values()].map((n) => n.records)).toEqual([30, 30, 30]);
    const windowed = estimateHistoryNoise(mixed, { fingerprint: FINGERPRINT, window: 22 });
    expect(windowed.series.values().next().value).toMatchObject({ records: 22, df: 21 });
    // Fewer records than 20 give no estimate: the window never goes below that.
    expect(estimateHistoryNoise(mixed, { fingerprint: FINGERPRINT, window: 8 }).basis.window).toBe(
      20,
    );
    expect(
      estimateHistoryNoise(historyOf(s.base.slice(0, 19)), { fingerprint: undefined }).series.size,
    ).toBe(0);
    // Medians over rounds vary less than one run: such records are not used.
    const rounds = historyOf(s.base.slice(0, 30), { fingerprint: FINGERPRINT, rounds: 5 });
    expect(estimateHistoryNoise(rounds, { fingerprint: FINGERPRINT }).series.size).toBe(0);
    // A fingerprint no record can have matches none and is not reported.
    const odd = estimateHistoryNoise(mine, { fingerprint: "not a fingerprint" });
    expect(odd.basis.fingerprint).toBeNull();
  });

  it("starts after a step the change-point test finds, and after a superseded baseline", () => {
    const history = historyOf(s.base.slice(0, 40));
    // Commit 16 on, benchmark 0 runs 30 % slower: a code change, not noise.
    history.commits = history.commits.map((c, i) => ({
      ...c,
      results: c.results.map((r): (typeof c.results)[number] =>
        r[0] === 0 && i >= 15 ? [0, r[1] * 1.3, null, null, null] : r,
      ),
    }));
    const noise = estimateHistoryNoise(history, { fingerprint: undefined });
    const stepped = noise.series.get(
      JSON.stringify(["synthetic", "group/bench-0", "ns", "smaller_is_better"]),
    );
    expect(stepped?.records).toBe(25);
    expect(Math.sqrt(stepped?.variance ?? 0)).toBeLessThan(0.1);
    const marked: BenchHistory = {
      ...historyOf(s.base.slice(0, 40)),
      breaks: [
        {
          benchmark: "group/bench-1",
          from: recordSha(18),
          reason: "new method",
          recorded_at: "2026-01-02T00:00:00Z",
        },
      ],
    };
    const cut = estimateHistoryNoise(marked, { fingerprint: undefined });
    expect(
      cut.series.get(JSON.stringify(["synthetic", "group/bench-1", "ns", "smaller_is_better"]))
        ?.records,
    ).toBe(23);
  });
});

describe("base, head, base in one job", () => {
  /** Rounds 1 and 2 of base, round 1 of head: the --aba layout. */
  function aba(seed: number, scale?: (i: number) => number) {
    const s = syntheticSuite({
      benchmarks: 20,
      rounds: 2,
      samples: 9,
      noise: 0.02,
      seed,
      ...(scale === undefined ? {} : { scale }),
    });
    return { base: s.base, head: s.head.slice(0, 1) };
  }

  it("finds ×2 with few false discoveries, and rarely fails an A/A comparison", () => {
    let found = 0;
    let falseFlags = 0;
    let failedAa = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { base, head } = aba(seed, (i) => (i < 4 ? 2 : 1));
      const report = validateReport(compare(base, head, { settings, noise: { kind: "aba" } }), "r");
      expect(report.mode).toBe("aba");
      for (const [i, e] of report.benchmarks.entries()) {
        if (i < 4 && e.verdict === "regressed") found++;
        if (i >= 4 && e.verdict === "regressed") falseFlags++;
      }
      const same = aba(seed);
      if (compare(same.base, same.head, { settings, noise: { kind: "aba" } }).verdict === "fail")
        failedAa++;
    }
    expect(found).toBeGreaterThanOrEqual(0.8 * 160);
    // Benjamini–Hochberg bounds the share of false ones among the flagged at q = 5 %.
    expect(falseFlags / (found + falseFlags)).toBeLessThanOrEqual(0.05);
    expect(failedAa).toBeLessThanOrEqual(2);
  });

  it("tests a benchmark against the suite's centre, so a shock of a whole run is no alarm", () => {
    const { base, head } = aba(5, (i) => (i === 2 ? 3 : 1));
    // The second base run landed 10 % slow for everything: the head run's shock is then
    // uncertain, but benchmark 2 moved ×3 against the rest of the suite.
    const shocked = scaleSamples(base, (round) => (round === 2 ? 1.1 : 1));
    const report = compare(shocked, head, { settings, noise: { kind: "aba" } });
    expect(report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
      "group/bench-2",
    ]);
    // The head run 10 % slow for everything: one run cannot tell that from a slower suite; it is
    // the suite's hypothesis, not twenty benchmarks' regressions.
    const same = aba(6);
    const slowHead = scaleSamples(same.head, () => 1.1);
    const shifted = compare(same.base, slowHead, { settings, noise: { kind: "aba" } });
    expect(shifted.counts.regressed).toBe(0);
    expect(shifted.suites?.[0]?.shift?.change).toBeCloseTo(0.1, 1);
  });

  it("refuses another layout, naming the benchmark", () => {
    const s = syntheticSuite({ benchmarks: 2, rounds: 2, samples: 5, noise: 0.02, seed: 1 });
    expect(() => compare(s.base, s.head, { settings, noise: { kind: "aba" } })).toThrow(
      /--aba needs two base runs and one head run of every benchmark; "group\/bench-0" has 2 base and 2 head/,
    );
  });
});
