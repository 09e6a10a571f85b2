// Seeded Criterion-like summaries shaped like the cases the smell detectors catch: per-iteration
// samples in ns, Criterion's metadata, k interleaved rounds per side. Each benchmark has a typical
// time, a within-run spread and, when the case needs it, its own sample shape (a drift, two modes,
// quantized values…). `smellsOf` runs compare() and then detectSmells(), as the gate does.
import { compare } from "../../src/core/compare-summaries.ts";
import type { SourcedSummary } from "../../src/core/pairing.ts";
import { resolveSettings, type CompareSettings } from "../../src/core/settings.ts";
import type { BenchReport, Smell } from "../../src/schemas/report.gen.ts";
import type { BenchSummary, Benchmark } from "../../src/schemas/summary.gen.ts";
import { detectSmells, type SmellConfig } from "../../src/smells/detect-smells.ts";
import { gaussian, rng } from "./synthetic.ts";

export type Side = "base" | "head";

/** What a sample shape gets for one run of one benchmark. */
export interface RunContext {
  readonly side: Side;
  readonly round: number;
  /** This run's level: the benchmark's time × head scale × between-round noise. */
  readonly level: number;
  /** How many samples to return. */
  readonly count: number;
  readonly spread: number;
  readonly random: () => number;
  readonly normal: () => number;
}

export type SampleShape = (run: RunContext) => number[];

export interface ShapedBenchmark {
  readonly id: string;
  /** Default "micro". */
  readonly suite?: string;
  /** Typical per-iteration time on base, ns. */
  readonly ns: number;
  /** Head time over base time (default 1), or per round. */
  readonly headScale?: number | ((round: number) => number);
  /** SD of ln(sample) within a run (default 0.02). */
  readonly spread?: number;
  /** Samples per run (default 100, Criterion's default sample size). */
  readonly samples?: number;
  readonly sampleKind?: NonNullable<Benchmark["sample_kind"]>;
  /** Default: Criterion's group_id/function_id/value_str read off the id. */
  readonly metadata?: NonNullable<Benchmark["metadata"]>;
  /** Default: lognormal samples around the run's level. */
  readonly shape?: SampleShape;
}

export interface ShapedSuiteSpec {
  readonly benchmarks: readonly ShapedBenchmark[];
  /** Default 5. */
  readonly rounds?: number;
  /** SD of ln(run level) between rounds (default 0.003: a quiet, pinned runner). */
  readonly roundNoise?: number;
  readonly seed: number;
}

export interface ShapedSuite {
  readonly base: SourcedSummary[];
  readonly head: SourcedSummary[];
}

/** Criterion's metadata for `group/function/value`, `group/value` or `group/function`. */
export function criterionMetadata(id: string): NonNullable<Benchmark["metadata"]> {
  const parts = id.split("/");
  const last = parts[parts.length - 1] ?? "";
  const value = parts.length > 1 && /^\d+(\.\d+)?$/.test(last) ? last : undefined;
  const named = value === undefined ? parts : parts.slice(0, -1);
  const meta: NonNullable<Benchmark["metadata"]> = {
    group_id: named[0] ?? id,
    sampling_mode: "Linear",
  };
  if (named.length > 1) meta["function_id"] = named.slice(1).join("/");
  if (value !== undefined) meta["value_str"] = value;
  return meta;
}

/** Lognormal samples around the run's level: a healthy benchmark. */
export const lognormal: SampleShape = (run) =>
  Array.from({ length: run.count }, () => run.level * Math.exp(run.spread * run.normal()));

/**
 * Per-iteration time rising with the sample's position, as under Criterion's linear sampling
 * when state grows between iterations (bs58's encode_bs58_noalloc appends to one String):
 * sample j of n takes level × (1 + rise × j/n), times the usual noise.
 */
export function rising(rise: number): SampleShape {
  return (run) =>
    Array.from(
      { length: run.count },
      (_, j) => run.level * (1 + (rise * j) / run.count) * Math.exp(run.spread * run.normal()),
    );
}

/** Fisher–Yates with the given random source. */
export function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A shape's samples in a random order: same values, no relation to position. */
export function shuffledShape(shape: SampleShape): SampleShape {
  return (run) => shuffled(shape(run), run.random);
}

/**
 * Two tight modes: a share `upper` of the samples at level × ratio, the rest at the level, each
 * with the run's spread; `inRound` says which rounds show it (the others are one mode).
 */
export function twoModes(
  ratio: number,
  upper: number,
  inRound: (round: number) => boolean = () => true,
): SampleShape {
  return (run) => {
    const high = inRound(run.round) ? Math.round(upper * run.count) : 0;
    const samples = Array.from(
      { length: run.count },
      (_, j) => run.level * (j < high ? ratio : 1) * Math.exp(run.spread * run.normal()),
    );
    return shuffled(samples, run.random);
  };
}

/**
 * A disturbed run: one tight mode and a share `slow` of samples smeared log-uniformly from
 * `from`× to `to`× the level, as when other processes steal the CPU now and then.
 */
export function smeared(slow: number, from: number, to: number): SampleShape {
  return (run) => {
    const smear = Math.round(slow * run.count);
    const samples = Array.from({ length: run.count }, (_, j) =>
      j < smear
        ? run.level * Math.exp(Math.log(from) + run.random() * (Math.log(to) - Math.log(from)))
        : run.level * Math.exp(run.spread * run.normal()),
    );
    return shuffled(samples, run.random);
  };
}

/** Samples that only take the given values (a coarse timer), drawn uniformly. */
export function quantized(values: readonly number[]): SampleShape {
  return (run) =>
    Array.from({ length: run.count }, () => values[Math.floor(run.random() * values.length)] ?? 0);
}

/** One benchmark per size: `stem/size` taking `times[i]` ns, Criterion's value_str set. */
export function sizeSeries(
  stem: string,
  sizes: readonly number[],
  times: readonly number[],
  extra: Partial<Omit<ShapedBenchmark, "id" | "ns" | "headScale">> & {
    /** Head times per size, when head differs. */
    readonly headTimes?: readonly number[];
  } = {},
): ShapedBenchmark[] {
  const { headTimes, ...rest } = extra;
  return sizes.map((size, i) => {
    const ns = times[i] as number;
    const head = headTimes?.[i];
    return {
      ...rest,
      id: `${stem}/${size}`,
      ns,
      ...(head === undefined ? {} : { headScale: head / ns }),
    };
  });
}

function benchmarkOf(
  b: ShapedBenchmark,
  side: Side,
  round: number,
  roundNoise: number,
  random: () => number,
  normal: () => number,
): Benchmark {
  const scale =
    side === "head"
      ? typeof b.headScale === "function"
        ? b.headScale(round)
        : (b.headScale ?? 1)
      : 1;
  const level = b.ns * scale * Math.exp(roundNoise * normal());
  const samples = (b.shape ?? lognormal)({
    side,
    round,
    level,
    count: b.samples ?? 100,
    spread: b.spread ?? 0.02,
    random,
    normal,
  });
  const sorted = [...samples].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(mid)] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return {
    id: b.id,
    suite: b.suite ?? "micro",
    source: "criterion",
    unit: "ns",
    direction: "smaller_is_better",
    sample_kind: b.sampleKind ?? "per_iteration",
    samples,
    estimates: { median, mean: samples.reduce((s, x) => s + x, 0) / samples.length },
    metadata: b.metadata ?? criterionMetadata(b.id),
  };
}

/** k interleaved rounds per side (A B | B A | …), one summary per side and round. */
export function shapedSuite(spec: ShapedSuiteSpec): ShapedSuite {
  const random = rng(spec.seed);
  const normal = gaussian(random);
  const rounds = spec.rounds ?? 5;
  const roundNoise = spec.roundNoise ?? 0.003;
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  for (let round = 1; round <= rounds; round++) {
    const baseFirst = round % 2 === 1;
    for (const side of ["base", "head"] as const) {
      const first = (side === "base") === baseFirst;
      const summary: BenchSummary = {
        schema_version: 1,
        side,
        round,
        started_at: new Date(t0 + round * 600_000 + (first ? 0 : 300_000)).toISOString(),
        benchmarks: spec.benchmarks.map((b) =>
          benchmarkOf(b, side, round, roundNoise, random, normal),
        ),
      };
      (side === "base" ? base : head).push({ source: `${side}-${round}.json`, summary });
    }
  }
  return { base, head };
}

/** Both sides' summaries of several suites (or parts of one), merged round by round. */
export function mergeSuites(...suites: readonly ShapedSuite[]): ShapedSuite {
  const merge = (files: readonly SourcedSummary[][]): SourcedSummary[] => {
    const first = files[0] ?? [];
    return first.map((f, i) => ({
      ...f,
      summary: {
        ...f.summary,
        benchmarks: files.flatMap((side) => side[i]?.summary.benchmarks ?? []),
      },
    }));
  };
  return { base: merge(suites.map((s) => s.base)), head: merge(suites.map((s) => s.head)) };
}

/** compare() as the gate runs it (default settings unless overridden). */
export function reportOf(suite: ShapedSuite, settings: Partial<CompareSettings> = {}): BenchReport {
  return compare(suite.base, suite.head, {
    settings: resolveSettings(settings),
    now: "2026-01-01T00:00:00.000Z",
  });
}

/** compare() then detectSmells(), as gateReport does. */
export function smellsOf(
  suite: ShapedSuite,
  config?: SmellConfig,
  settings: Partial<CompareSettings> = {},
): Smell[] {
  return detectSmells({ ...suite, report: reportOf(suite, settings) }, config);
}

export function kindsOf(smells: readonly Smell[]): string[] {
  return smells.map((s) => s.kind);
}

export function ofKind(smells: readonly Smell[], kind: string): Smell[] {
  return smells.filter((s) => s.kind === kind);
}

/** A suite on a noisy runner (5 % between rounds): its MDEs are well above the fail threshold. */
export function noisySuite(benchmarks: readonly ShapedBenchmark[], seed = 11): ShapedSuite {
  return shapedSuite({ seed, roundNoise: 0.05, benchmarks });
}
