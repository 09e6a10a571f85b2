import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compare } from "./compare-summaries.ts";
import { spreadOf } from "./counts.ts";
import { planNextRound } from "./sequential.ts";
import { resolveSettings } from "./settings.ts";
import type { SourcedSummary } from "./pairing.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";
import { validateReport } from "../schemas/validate-document.ts";
import { syntheticSuite } from "../../test/support/synthetic.ts";

type Counts = Readonly<Record<string, readonly number[]>>;
interface CountSpec {
  readonly base: Counts;
  readonly head: Counts;
  readonly secondary?: readonly string[];
  readonly suite?: string;
}

function count(id: string, value: number, spec: CountSpec): Benchmark {
  return {
    id,
    suite: spec.suite ?? "counts",
    source: "gungraun",
    unit: "instructions",
    metric: spec.secondary?.includes(id) === true ? "l1_hits" : "instructions",
    deterministic: true,
    ...(spec.secondary?.includes(id) === true ? { secondary: true } : {}),
    direction: "smaller_is_better",
    sample_kind: "per_process",
    samples: [value],
    estimates: { median: value },
  };
}

/** One summary per side and round from per-benchmark per-round counts. */
function summaries(spec: CountSpec): { base: SourcedSummary[]; head: SourcedSummary[] } {
  const side = (name: "base" | "head"): SourcedSummary[] => {
    const perId = spec[name];
    const rounds = Math.max(...Object.values(perId).map((v) => v.length));
    return Array.from({ length: rounds }, (_, i) => ({
      source: `${name}-${i + 1}.json`,
      summary: {
        schema_version: 1,
        side: name,
        round: i + 1,
        benchmarks: Object.entries(perId)
          .filter(([, v]) => v[i] !== undefined)
          .map(([id, v]) => count(id, v[i] as number, spec)),
      },
    }));
  };
  return { base: side("base"), head: side("head") };
}

const settings = resolveSettings();
function judge(spec: CountSpec, options: Parameters<typeof compare>[2] = { settings }) {
  const s = summaries(spec);
  const report = compare(s.base, s.head, options);
  expect(() => validateReport(report, "report")).not.toThrow();
  return report;
}
const entry = (report: ReturnType<typeof judge>, id: string) =>
  report.benchmarks.find((b) => b.id === id);

describe("deterministic counts", () => {
  it("decides exact counts on the count threshold, without statistics", () => {
    const report = judge({
      base: { same: [1000, 1000, 1000], up: [100_000, 100_000, 100_000], small: [1e6, 1e6, 1e6] },
      head: {
        same: [1000, 1000, 1000],
        up: [101_000, 101_000, 101_000],
        small: [1_005_000, 1_005_000, 1_005_000],
      },
    });
    expect(entry(report, "same")).toMatchObject({
      verdict: "unchanged",
      change: 0,
      p: null,
      determinism: { status: "deterministic", spread: { base: 0, head: 0 }, threshold: 0.01 },
    });
    // Exactly +1 %: the threshold is met, not missed by a rounding error.
    expect(entry(report, "up")?.verdict).toBe("regressed");
    expect(entry(report, "up")?.ci?.[0]).toBe(entry(report, "up")?.ci?.[1]);
    expect(entry(report, "up")?.change).toBeCloseTo(0.01, 12);
    // +0.5 %: real (the count is exact), noted, below the threshold.
    const small = entry(report, "small");
    expect(small?.verdict).toBe("unchanged");
    expect(small?.notes.join(" ")).toMatch(/\+0\.50 % instructions: a real change/);
    expect(report.verdict).toBe("fail");
    expect(report.reasons).toContain("1 deterministic count regressed by at least 1.0 %");
    expect(report.mode).toBe("rounds");
  });

  it("says nothing of changes below the noise floor, and finds improvements", () => {
    const report = judge({
      base: { tiny: [1_000_000, 1_000_000], down: [5000, 5000] },
      head: { tiny: [1_000_500, 1_000_500], down: [4900, 4900] },
    });
    expect(entry(report, "tiny")).toMatchObject({ verdict: "unchanged", notes: [] });
    expect(entry(report, "down")?.verdict).toBe("improved");
    expect(report.verdict).toBe("pass");
  });

  it("never raises a false alarm on A/A counts, and finds every +1 % (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 2, max: 6 }),
        (n, rounds) => {
          const same = Array.from({ length: rounds }, () => n);
          const aa = judge({ base: { b: same }, head: { b: same } });
          expect(aa.benchmarks[0]?.verdict).toBe("unchanged");
          const up = Math.ceil(n * 1.01);
          const aplus = judge({
            base: { b: same },
            head: { b: same.map(() => up) },
          });
          expect(aplus.benchmarks[0]?.verdict).toBe("regressed");
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reports counts that differ between rounds as non-deterministic, never regressed or unchanged", () => {
    // A spin-until-deadline loop: its count follows the machine's speed in each round.
    const report = judge({
      base: { spin: [9_812_331, 12_004_517, 10_331_904, 8_790_112] },
      head: { spin: [11_225_019, 9_402_880, 10_998_246, 9_967_301] },
    });
    const spin = entry(report, "spin");
    expect(spin?.determinism?.status).toBe("non-deterministic");
    expect(spin?.determinism?.spread.base).toBeCloseTo((12_004_517 - 8_790_112) / 10_072_117.5, 9);
    // Tested like a timing for its change and interval, on the timing thresholds.
    expect(spin?.determinism?.threshold).toBe(settings.failThreshold);
    expect(spin?.p).not.toBeNull();
    expect(spin?.verdict).toBe("inconclusive");
    expect(spin?.notes.join(" ")).toMatch(
      /non-deterministic count: its rounds differ \(spread 3\d\.\d % in base.*reported, not decided; tested like a timing it reads inconclusive/,
    );
    expect(report.verdict).toBe("inconclusive");
    expect(report.reasons).toContain(
      "1 count not deterministic (rounds of the same code differ): reported, not decided",
    );
  });

  it("does not let a timing test confirm a non-deterministic count: a clear rise is reported, not failed", () => {
    // Spread about 0.1 % per side and +30 % in head: a timing test would call it regressed.
    const base = [1_000_000, 1_000_700, 1_001_000, 1_000_300, 1_000_500];
    const report = judge({ base: { c: base }, head: { c: base.map((x) => x * 1.3 + 17) } });
    const c = entry(report, "c");
    expect(c?.verdict).toBe("inconclusive");
    expect(c?.change).toBeCloseTo(0.3, 2);
    expect(c?.notes.join(" ")).toMatch(/tested like a timing it reads regressed/);
    expect(report.verdict).toBe("inconclusive");
    expect(report.counts.regressed).toBe(0);
  });

  it("does not call a tiny, stable non-determinism (a random hash seed) unchanged either", () => {
    const base = [1_000_003, 1_000_001, 1_000_004, 1_000_002, 1_000_003];
    const report = judge({ base: { h: base }, head: { h: base.map((x) => x + 1) } });
    expect(entry(report, "h")).toMatchObject({
      verdict: "inconclusive",
      determinism: { status: "non-deterministic" },
    });
    expect(entry(report, "h")?.notes.join(" ")).toMatch(/tested like a timing it reads unchanged/);
  });

  it("keeps secondary counts out of the verdict and the counts", () => {
    const report = judge({
      base: { ir: [1000, 1000], "ir [l1_hits]": [500, 500], "ir [ram_hits]": [2, 7] },
      head: { ir: [1000, 1000], "ir [l1_hits]": [900, 900], "ir [ram_hits]": [3, 9] },
      secondary: ["ir [l1_hits]", "ir [ram_hits]"],
    });
    expect(entry(report, "ir [l1_hits]")).toMatchObject({ verdict: "regressed", secondary: true });
    expect(entry(report, "ir [ram_hits]")).toMatchObject({
      verdict: "inconclusive",
      determinism: { status: "non-deterministic" },
    });
    expect(report.counts).toMatchObject({ total: 1, regressed: 0, inconclusive: 0 });
    expect(report.verdict).toBe("pass");
  });

  it("flags one round per side as unchecked", () => {
    const report = judge({ base: { a: [2000] }, head: { a: [2100] } });
    expect(entry(report, "a")).toMatchObject({
      verdict: "regressed",
      unverified: true,
      determinism: { status: "unchecked", spread: { base: null, head: null } },
    });
  });

  it("uses a suite's own thresholds", () => {
    const spec = { base: { a: [1000, 1000] }, head: { a: [1004, 1004] }, suite: "strict" };
    expect(judge(spec).benchmarks[0]?.verdict).toBe("unchanged");
    const own = new Map([["strict", { threshold: 0.002, noiseFloor: 0.0005 }]]);
    const report = judge(spec, { settings, countThresholds: own });
    expect(report.benchmarks[0]).toMatchObject({
      verdict: "regressed",
      determinism: { threshold: 0.002, noise_floor: 0.0005 },
    });
  });

  it("handles counts of zero", () => {
    const report = judge({
      base: { z: [0, 0], appears: [0, 0] },
      head: { z: [0, 0], appears: [40, 40] },
    });
    expect(entry(report, "z")).toMatchObject({ verdict: "unchanged", change: 0 });
    expect(entry(report, "appears")).toMatchObject({ verdict: "regressed", change: null });
  });

  it("keeps timings and counts apart in one report", () => {
    const timed = syntheticSuite({ benchmarks: 12, rounds: 3, samples: 10, noise: 0.05, seed: 7 });
    const counted = summaries({ base: { c: [700, 700, 700] }, head: { c: [714, 714, 714] } });
    const merge = (a: SourcedSummary[], b: SourcedSummary[]) =>
      a.map((f, i) => ({
        ...f,
        summary: {
          ...f.summary,
          benchmarks: [...f.summary.benchmarks, ...(b[i]?.summary.benchmarks ?? [])],
        },
      }));
    const report = compare(merge(timed.base, counted.base), merge(timed.head, counted.head), {
      settings,
    });
    expect(entry(report, "c")?.verdict).toBe("regressed");
    expect(report.counts.total).toBe(13);
    // The noise block describes the timings only.
    expect(report.noise.median_mde).toBeGreaterThan(0.02);
  });

  it("settles exact counts in sequential rounds", () => {
    const s = summaries({
      base: { a: [10, 10, 10], b: [7, 7, 9] },
      head: { a: [11, 11, 11], b: [7, 8, 7] },
    });
    const design = { minRounds: 3, maxRounds: 8 };
    const next = planNextRound(s.base, s.head, settings, design);
    expect(next.settled.get("a")).toBe("regressed");
    expect(next.active.has("a")).toBe(false);
    // b's counts differ between rounds: the stopping rule for timings decides when it stops.
    expect(next.line).toMatch(/of 2 benchmarks/);
  });

  it("measures the spread as (max − min) / median", () => {
    expect(spreadOf([5])).toBeUndefined();
    expect(spreadOf([5, 5, 5])).toBe(0);
    expect(spreadOf([90, 100, 110])).toBeCloseTo(0.2, 12);
    expect(spreadOf([0, 0, 3])).toBe(Number.POSITIVE_INFINITY);
  });
});
