import { describe, expect, it } from "vitest";
import { fitRoundModel, welchDf, type BenchmarkRounds } from "./round-model.ts";
import type { RoundOrder } from "./pairing.ts";
import { biweightLocation } from "./robust.ts";
import { gaussian, rng } from "../../test/support/synthetic.ts";

/** m benchmarks × k rounds: d = δ_b + γ_r + ε with known parts. */
function grid(spec: {
  m: number;
  k: number;
  delta: (b: number) => number;
  gamma: (r: number) => number;
  noise: number;
  seed: number;
  present?: (b: number, r: number) => boolean;
}): BenchmarkRounds[] {
  const normal = gaussian(rng(spec.seed));
  return Array.from({ length: spec.m }, (_, b) => {
    const rounds: number[] = [];
    const d: number[] = [];
    for (let r = 1; r <= spec.k; r++) {
      if (spec.present !== undefined && !spec.present(b, r)) continue;
      rounds.push(r);
      d.push(spec.delta(b) + spec.gamma(r) + spec.noise * normal());
    }
    return { id: `b${b}`, rounds, d };
  });
}

const alternating = (k: number): Map<number, RoundOrder> =>
  new Map(Array.from({ length: k }, (_, i) => [i + 1, i % 2 === 0 ? "base" : "head"] as const));

const options = { minBenchmarks: 10, crossover: true };

describe("biweightLocation", () => {
  it("follows the majority when a fifth of the values moved far away", () => {
    const values = [
      ...Array.from({ length: 80 }, (_, i) => (i % 9) * 0.001),
      ...Array.from({ length: 20 }, () => 0.7),
    ];
    expect(biweightLocation(values)).toBeLessThan(0.01);
  });
});

describe("fitRoundModel", () => {
  it("falls back to per-benchmark analysis below the minimum number of benchmarks per round", () => {
    const data = grid({ m: 6, k: 5, delta: () => 0, gamma: () => 0, noise: 0.01, seed: 1 });
    const model = fitRoundModel(data, alternating(5), options);
    expect(model.kind).toBe("per-benchmark");
    expect(model.shift).toBeUndefined();
    expect(model.adjust(data[0]!).x).toEqual(data[0]!.d);
  });

  it("takes a shared round shock out of every benchmark and puts it in the shared variance", () => {
    const shocks = [0, 0.02, -0.03, 0.12, -0.05, 0.01];
    const data = grid({
      m: 30,
      k: 6,
      delta: () => 0,
      gamma: (r) => shocks[r - 1]!,
      noise: 0.005,
      seed: 2,
    });
    const model = fitRoundModel(data, new Map(), options);
    expect(model.kind).toBe("two-way");
    const a = model.adjust(data[0]!);
    const spread = (xs: readonly number[]) => Math.max(...xs) - Math.min(...xs);
    expect(spread(a.x)).toBeLessThan(0.04);
    expect(spread(data[0]!.d)).toBeGreaterThan(0.15);
    // The mean shock is still in the estimate, and its uncertainty is in the shared variance
    // with the round-to-round df (k − 1 without an order term).
    expect(a.sharedDf).toBe(5);
    expect(Math.sqrt(a.sharedVariance)).toBeGreaterThan(0.02);
  });

  it("keeps a change of the whole suite in every benchmark's estimate (never normalised away)", () => {
    const data = grid({ m: 20, k: 5, delta: () => 0.05, gamma: () => 0, noise: 0.01, seed: 3 });
    const model = fitRoundModel(data, alternating(5), options);
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    for (const b of data) expect(mean(model.adjust(b).x)).toBeCloseTo(0.05, 1);
    expect(model.shift!.estimate).toBeCloseTo(0.05, 2);
  });

  it("fits the run-order effect only with two or more rounds of each order", () => {
    const order = (s: string): Map<number, RoundOrder> =>
      new Map([...s].map((c, i) => [i + 1, c === "h" ? "head" : "base"] as const));
    const data = grid({
      m: 20,
      k: 5,
      delta: () => 0,
      gamma: (r) => (r % 2 === 0 ? 0.06 : -0.06),
      noise: 0.005,
      seed: 4,
    });
    expect(fitRoundModel(data, order("bhbhb"), options).orderEffect).toBeCloseTo(0.06, 2);
    // One head-first round: its shock and the order effect cannot be told apart.
    expect(fitRoundModel(data, order("bbbhb"), options).orderEffect).toBeUndefined();
    expect(fitRoundModel(data, new Map(), options).orderEffect).toBeUndefined();
    expect(
      fitRoundModel(data, order("bhbhb"), { ...options, crossover: false }).orderEffect,
    ).toBeUndefined();
  });

  it("is not biased by which benchmarks a round ran (later rounds with a regressed subset)", () => {
    // Rounds 4–6 run only benchmarks 0–11, and 0–5 of them regressed by +40 %.
    const data = grid({
      m: 40,
      k: 6,
      delta: (b) => (b < 6 ? 0.4 : 0),
      gamma: () => 0,
      noise: 0.01,
      seed: 5,
      present: (b, r) => r <= 3 || b < 12,
    });
    const model = fitRoundModel(data, alternating(6), options);
    for (const r of [4, 5, 6]) expect(Math.abs(model.roundEffects.get(r)!)).toBeLessThan(0.03);
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean(model.adjust(data[0]!).x)).toBeCloseTo(0.4, 1);
    expect(mean(model.adjust(data[20]!).x)).toBeCloseTo(0, 1);
  });
});

describe("welchDf", () => {
  it("is the single part's df when the other part is zero, and between the two otherwise", () => {
    expect(
      welchDf([
        [1, 4],
        [0, 2],
      ]),
    ).toBe(4);
    const df = welchDf([
      [1, 4],
      [1, 100],
    ]);
    expect(df).toBeGreaterThan(4);
    expect(df).toBeLessThan(104);
  });
});
