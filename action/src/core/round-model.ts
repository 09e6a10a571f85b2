// Rounds as blocks. On a shared machine a whole round often runs faster or slower for every
// benchmark in it, and the process that runs first in a round is slower. Both are shared by all
// benchmarks of the round, so they are estimated once per round from the whole suite:
//
//   d[b,r] = δ_b + γ_r + ε[b,r],   γ_r = π·o_r + η_r,   o_r = +1 head ran first, −1 base first
//
// γ_r is fitted robustly across the benchmarks of round r (each benchmark's own level removed
// first, so a round that ran only some benchmarks is not biased by which ones), π (the run-order
// effect) by regressing the round effects on the order, and the round-to-round shocks η_r give
// σ_η² with only |E| − p degrees of freedom. Each benchmark is then tested on its round-centred
// values; its estimate still carries the mean shock of the rounds (a shift of the whole suite is
// never normalised away), and its variance carries that term's uncertainty with its own small df.
// A suite with fewer than `minBenchmarks` benchmarks in a round cannot estimate that round's
// effect: such rounds stay as measured (their shock is part of each benchmark's own variance).
//
// The rounds are blocks: a sharded run's rounds are (shard, round) pairs (./shard-blocks.ts), and
// no benchmark runs on two shards. Benchmark levels and round effects are then identified only
// within each connected set of rounds (a component: the rounds some benchmark links): adding c
// to one shard's round effects and subtracting it from its benchmarks' levels fits as well. So
// the effects are centred within each component, each benchmark keeps its own component's mean
// shock (σ_η²/|E_C|), and the shocks' variance and the order effect are fitted from all
// components together, with |E| − |C| − p degrees of freedom. An unsharded run is one component.
import type { RoundOrder } from "./pairing.ts";
import { biweightLocation, madScale } from "./robust.ts";
import { mean } from "./statistics.ts";

/** One benchmark's paired rounds on the slowdown scale (positive = worse). */
export interface BenchmarkRounds {
  readonly id: string;
  readonly rounds: readonly number[];
  readonly d: readonly number[];
}

export interface AdjustedRounds {
  /** Round-centred values whose mean estimates δ_b (same rounds as the input). */
  readonly x: readonly number[];
  /** Variance of the error shared with every benchmark (the mean shock, the order estimate). */
  readonly sharedVariance: number;
  readonly sharedDf: number;
  /** Degrees of freedom the round centres took from this benchmark's rounds. */
  readonly dfLoss: number;
}

interface SuiteShift {
  readonly estimate: number;
  readonly variance: number;
  readonly df: number;
  readonly benchmarks: number;
}

export interface RoundModel {
  readonly kind: "two-way" | "per-benchmark";
  /** Rounds whose effect was estimated (enough benchmarks in them). */
  readonly estimatedRounds: readonly number[];
  /** Fitted round effects γ_r, centred to mean zero over the estimated rounds. */
  readonly roundEffects: ReadonlyMap<number, number>;
  /** π: how much slower (log scale) the process that ran first was; undefined when not fitted. */
  readonly orderEffect: number | undefined;
  /** σ_η: round-to-round SD of the shocks, with its degrees of freedom. */
  readonly shockSd: number | undefined;
  readonly shockDf: number | undefined;
  /** The suite-wide change (every benchmark at once), when the model could estimate it. */
  readonly shift: SuiteShift | undefined;
  readonly adjust: (b: BenchmarkRounds) => AdjustedRounds;
}

function orderCode(order: RoundOrder | undefined): number | undefined {
  return order === "head" ? 1 : order === "base" ? -1 : undefined;
}

const PER_BENCHMARK: RoundModel = Object.freeze({
  kind: "per-benchmark",
  estimatedRounds: [],
  roundEffects: new Map(),
  orderEffect: undefined,
  shockSd: undefined,
  shockDf: undefined,
  shift: undefined,
  adjust: (b: BenchmarkRounds) => ({ x: b.d, sharedVariance: 0, sharedDf: Infinity, dfLoss: 0 }),
});

/** Alternates benchmark levels (means) and round centres (biweight) until they settle. */
function backfit(
  benchmarks: readonly BenchmarkRounds[],
  layout: Layout,
): { gamma: Map<number, number>; level: Map<string, number> } {
  const estimated = layout.component;
  const gamma = new Map<number, number>([...estimated.keys()].map((r) => [r, 0]));
  const level = new Map<string, number>();
  for (let iteration = 0; iteration < 100; iteration++) {
    for (const b of benchmarks) {
      const xs: number[] = [];
      b.rounds.forEach((r, i) => {
        const g = gamma.get(r);
        if (g !== undefined) xs.push((b.d[i] as number) - g);
      });
      if (xs.length > 0) level.set(b.id, mean(xs));
    }
    const perRound = new Map<number, number[]>();
    for (const b of benchmarks) {
      const mu = level.get(b.id);
      if (mu === undefined) continue;
      b.rounds.forEach((r, i) => {
        if (!estimated.has(r)) return;
        const list = perRound.get(r) ?? [];
        list.push((b.d[i] as number) - mu);
        perRound.set(r, list);
      });
    }
    const raw = new Map<number, number>();
    for (const r of estimated.keys()) raw.set(r, biweightLocation(perRound.get(r) ?? [0]));
    const centres = new Map<number, number>();
    for (const [c, rounds] of layout.rounds)
      centres.set(c, mean(rounds.map((r) => raw.get(r) as number)));
    let moved = 0;
    for (const [r, v] of raw) {
      const centred = v - (centres.get(estimated.get(r) as number) as number);
      moved = Math.max(moved, Math.abs(centred - (gamma.get(r) as number)));
      gamma.set(r, centred);
    }
    if (moved < 1e-12) break;
  }
  return { gamma, level };
}

interface RoundModelOptions {
  readonly minBenchmarks: number;
  /** Fit the run-order effect when the estimated rounds have both orders. */
  readonly crossover: boolean;
}

/** The estimated rounds and the components they fall into (see the head comment). */
interface Layout {
  /** Estimated round → its component. */
  readonly component: ReadonlyMap<number, number>;
  /** Component → its estimated rounds, ascending. */
  readonly rounds: ReadonlyMap<number, readonly number[]>;
  /** Component → how many benchmarks have an estimated round in it. */
  readonly benchmarks: ReadonlyMap<number, number>;
}

/** Connected components of the estimated rounds, linked by the benchmarks measured in both. */
function layoutOf(benchmarks: readonly BenchmarkRounds[], E: readonly number[]): Layout {
  const parent = new Map<number, number>(E.map((r) => [r, r]));
  const find = (r: number): number => {
    let root = r;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(r, root);
    return root;
  };
  for (const b of benchmarks) {
    const mine = b.rounds.filter((r) => parent.has(r));
    for (const r of mine.slice(1)) {
      const [x, y] = [find(mine[0] as number), find(r)];
      if (x !== y) parent.set(Math.max(x, y), Math.min(x, y));
    }
  }
  const component = new Map(E.map((r) => [r, find(r)]));
  const rounds = new Map<number, number[]>();
  for (const r of E) {
    const c = component.get(r) as number;
    rounds.set(c, [...(rounds.get(c) ?? []), r]);
  }
  const counted = new Map<number, number>();
  for (const b of benchmarks) {
    const c = componentOf(b, component);
    if (c !== undefined) counted.set(c, (counted.get(c) ?? 0) + 1);
  }
  return { component, rounds, benchmarks: counted };
}

/** The component of a benchmark's estimated rounds (all in one, since it links them). */
function componentOf(
  b: BenchmarkRounds,
  component: ReadonlyMap<number, number>,
): number | undefined {
  for (const r of b.rounds) {
    const c = component.get(r);
    if (c !== undefined) return c;
  }
  return undefined;
}

/** The rounds with enough benchmarks in them for their effect to be estimated, ascending. */
function estimableRounds(benchmarks: readonly BenchmarkRounds[], minBenchmarks: number): number[] {
  const count = new Map<number, number>();
  for (const b of benchmarks) for (const r of b.rounds) count.set(r, (count.get(r) ?? 0) + 1);
  return [...count]
    .filter(([, n]) => n >= minBenchmarks)
    .map(([r]) => r)
    .sort((a, b) => a - b);
}

/** The round effects split into the run-order term π·o_r and the shocks η_r. */
interface ShockFit {
  /** The estimated rounds (E). */
  readonly rounds: readonly number[];
  readonly withOrder: boolean;
  /** π, 0 when the order term is not fitted. */
  readonly pi: number;
  /** Mean order code per component, and the sum of squares of the codes around them. */
  readonly oBar: ReadonlyMap<number, number>;
  readonly Soo: number;
  readonly shockVar: number;
  readonly shockDf: number;
}

function fitShocks(
  layout: Layout,
  gamma: ReadonlyMap<number, number>,
  order: ReadonlyMap<number, RoundOrder>,
  crossover: boolean,
): ShockFit {
  const E = [...layout.component.keys()];
  // The run-order term: only when every estimated round's order is known and each order has at
  // least two rounds. With a lone round of one order, that round's shock and the order effect
  // are the same number: the crossover estimate would give the lone round half the weight and
  // its residual would be zero, so a one-off shock would pass for a precise suite-wide change.
  // Then the order effect stays in the round-to-round variation, widening every interval.
  const codes = E.map((r) => orderCode(order.get(r)));
  const known = codes.every((c) => c !== undefined);
  const o = codes.map((c) => c ?? 0);
  const codeOf = new Map(E.map((r, i) => [r, o[i] as number]));
  const oBar = new Map<number, number>();
  for (const [c, rounds] of layout.rounds)
    oBar.set(c, mean(rounds.map((r) => codeOf.get(r) as number)));
  // Codes around their component's mean: the effects are centred per component too.
  const centred = E.map(
    (r, i) => (o[i] as number) - (oBar.get(layout.component.get(r) as number) as number),
  );
  const Soo = centred.reduce((s, v) => s + v * v, 0);
  const headFirst = o.filter((v) => v > 0).length;
  const components = layout.rounds.size;
  const withOrder =
    crossover &&
    known &&
    Math.min(headFirst, E.length - headFirst) >= 2 &&
    Soo > 0 &&
    E.length - components - 1 >= 1;
  const g = E.map((r) => gamma.get(r) as number);
  const pi = withOrder ? centred.reduce((s, v, i) => s + v * (g[i] as number), 0) / Soo : 0;
  const residuals = g.map((v, i) => v - pi * (centred[i] as number));
  const shockDf = E.length - components - (withOrder ? 1 : 0);
  const shockVar = residuals.reduce((s, v) => s + v * v, 0) / shockDf;
  return { rounds: E, withOrder, pi, oBar, Soo, shockVar, shockDf };
}

/**
 * A benchmark's values with the fitted round effects removed (estimated rounds) or only the
 * run order (the others), and the variance of what that removal shares with the suite.
 */
function adjuster(
  gamma: ReadonlyMap<number, number>,
  fit: ShockFit,
  order: ReadonlyMap<number, RoundOrder>,
  layout: Layout,
): (b: BenchmarkRounds) => AdjustedRounds {
  const { pi, Soo, withOrder, shockVar, shockDf } = fit;
  const orderAt = (r: number): number => orderCode(order.get(r)) ?? 0;
  return (b) => {
    const c = componentOf(b, layout.component);
    const oBar = c === undefined ? 0 : (fit.oBar.get(c) as number);
    const blocks = c === undefined ? 1 : (layout.rounds.get(c) as readonly number[]).length;
    const benchmarks = c === undefined ? 1 : (layout.benchmarks.get(c) as number);
    const k = b.rounds.length;
    let nE = 0;
    let orderSum = 0;
    const x = b.rounds.map((r, i) => {
      const d = b.d[i] as number;
      const gr = gamma.get(r);
      if (gr !== undefined) {
        nE++;
        orderSum += oBar;
        return d - gr - pi * oBar;
      }
      orderSum += orderAt(r);
      return d - pi * orderAt(r);
    });
    const wShock = nE / k;
    const wOrder = orderSum / k;
    // Its component's mean shock stays in its values: σ_η² / |E_C|.
    const sharedVariance =
      shockVar * ((wShock * wShock) / blocks + (withOrder ? (wOrder * wOrder) / Soo : 0));
    return { x, sharedVariance, sharedDf: shockDf, dfLoss: nE > 1 ? (nE - 1) / benchmarks : 0 };
  };
}

/**
 * The suite-wide shift: the robust centre of the benchmarks' levels, order-corrected. Its
 * uncertainty is the mean shock's (σ_η², few df) plus the centre's own sampling error over
 * benchmarks (the median's π/2 factor, a bound for the biweight).
 */
function suiteShift(
  levelOf: ReadonlyMap<string, { readonly level: number; readonly component: number }>,
  fit: ShockFit,
  layout: Layout,
): SuiteShift {
  const { shockVar, withOrder, Soo } = fit;
  // Each benchmark's level, order-corrected with its own component's mean code; what they share
  // is each component's mean shock, weighted by its share of the benchmarks.
  const all = [...levelOf.values()];
  const levels = all.map((l) => l.level - fit.pi * (fit.oBar.get(l.component) as number));
  let meanShock = 0;
  let meanCode = 0;
  for (const [c, rounds] of layout.rounds) {
    const w = (layout.benchmarks.get(c) ?? 0) / all.length;
    meanShock += (w * w) / rounds.length;
    meanCode += w * (fit.oBar.get(c) as number);
  }
  const shockPart = shockVar * (meanShock + (withOrder ? (meanCode * meanCode) / Soo : 0));
  const spread = madScale(levels);
  const centrePart = ((Math.PI / 2) * (spread * spread)) / levels.length;
  const variance = shockPart + centrePart;
  const df = welchDf([
    [shockPart, fit.shockDf],
    [centrePart, levels.length - 1],
  ]);
  return {
    estimate: biweightLocation(levels),
    variance,
    df,
    benchmarks: levels.length,
  };
}

export function fitRoundModel(
  benchmarks: readonly BenchmarkRounds[],
  order: ReadonlyMap<number, RoundOrder>,
  options: RoundModelOptions,
): RoundModel {
  const E = estimableRounds(benchmarks, options.minBenchmarks);
  if (E.length < 2) return PER_BENCHMARK;
  const layout = layoutOf(benchmarks, E);
  // Every component a single round: nothing to centre against, no shock to estimate.
  if (E.length - layout.rounds.size < 1) return PER_BENCHMARK;
  const { gamma, level } = backfit(benchmarks, layout);
  const fit = fitShocks(layout, gamma, order, options.crossover);
  const levelOf = new Map<string, { level: number; component: number }>();
  for (const b of benchmarks) {
    const l = level.get(b.id);
    const c = componentOf(b, layout.component);
    if (l !== undefined && c !== undefined) levelOf.set(b.id, { level: l, component: c });
  }
  return {
    kind: "two-way",
    estimatedRounds: E,
    roundEffects: gamma,
    orderEffect: fit.withOrder ? fit.pi : undefined,
    shockSd: Math.sqrt(fit.shockVar),
    shockDf: fit.shockDf,
    shift: suiteShift(levelOf, fit, layout),
    adjust: adjuster(gamma, fit, order, layout),
  };
}

/** Welch–Satterthwaite degrees of freedom of a sum of independent variance estimates. */
export function welchDf(parts: readonly (readonly [variance: number, df: number])[]): number {
  let total = 0;
  let denominator = 0;
  for (const [v, df] of parts) {
    total += v;
    if (v > 0) denominator += Number.isFinite(df) ? (v * v) / df : 0;
  }
  if (!(total > 0)) return Math.min(...parts.map(([, df]) => df));
  if (denominator === 0) return Infinity;
  return (total * total) / denominator;
}
