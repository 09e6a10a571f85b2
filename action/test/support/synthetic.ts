// Seeded synthetic summaries for statistics tests and benchmarks: lognormal per-round noise,
// per-benchmark noise levels, alternating run order (A B B A …) and an optional period effect.
import type { BenchSummary } from "../../src/schemas/summary.gen.ts";
import type { SourcedSummary } from "../../src/core/pairing.ts";

/** Mulberry32: small, fast, good enough for tests; the seed makes every run identical. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussian(random: () => number): () => number {
  return () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
}

export interface SyntheticSuite {
  readonly benchmarks: number;
  readonly rounds: number;
  readonly samples: number;
  /** Median SD of ln(per-round statistic) for one side; per-benchmark SDs spread around it. */
  readonly noise: number;
  /** Spread (log-SD) of the per-benchmark noise levels. */
  readonly noiseSpread?: number;
  /** Head multiplier per benchmark index (1 = unchanged). */
  readonly scale?: (index: number) => number;
  /** ln of the slowdown of whichever process runs first in a round. */
  readonly periodEffect?: number;
  /** SD (log scale) of a shock that shifts one side's whole round, shared by every benchmark. */
  readonly roundShock?: number;
  readonly unit?: string;
  readonly direction?: "smaller_is_better" | "bigger_is_better";
  readonly seed: number;
}

export function syntheticSuite(spec: SyntheticSuite): {
  base: SourcedSummary[];
  head: SourcedSummary[];
} {
  const normal = gaussian(rng(spec.seed));
  const levels = Array.from(
    { length: spec.benchmarks },
    () => spec.noise * Math.exp((spec.noiseSpread ?? 0.3) * normal()),
  );
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  for (let r = 1; r <= spec.rounds; r++) {
    // A B B A A B …: base first in odd rounds.
    const baseFirst = r % 2 === 1;
    for (const side of ["base", "head"] as const) {
      // Drawn only when asked for, so suites without shocks keep their seeded values.
      const shock = spec.roundShock === undefined ? 1 : Math.exp(spec.roundShock * normal());
      const first = (side === "base") === baseFirst;
      const benchmarks = [];
      for (let i = 0; i < spec.benchmarks; i++) {
        const truth = 1000 * (1 + i) * (side === "head" ? (spec.scale?.(i) ?? 1) : 1);
        const period = first ? Math.exp(spec.periodEffect ?? 0) : 1;
        const runLevel = truth * period * shock * Math.exp((levels[i] as number) * normal());
        const samples = Array.from(
          { length: spec.samples },
          () => runLevel * Math.exp(0.03 * normal()),
        );
        const unit = spec.unit ?? "ns";
        const direction = spec.direction ?? "smaller_is_better";
        const values = direction === "bigger_is_better" ? samples.map((x) => 1e9 / x) : samples;
        benchmarks.push({
          id: `group/bench-${i}`,
          suite: "synthetic",
          source: "custom" as const,
          unit,
          direction,
          samples: values,
          estimates: { mean: values.reduce((a, b) => a + b, 0) / values.length },
        });
      }
      const started = new Date(t0 + r * 600_000 + (first ? 0 : 300_000)).toISOString();
      const summary: BenchSummary = {
        schema_version: 1,
        side,
        round: r,
        started_at: started,
        benchmarks,
      };
      (side === "base" ? base : head).push({ source: `${side}-${r}.json`, summary });
    }
  }
  return { base, head };
}

/** The same files with every sample × factor(round, id): an injected change, or a round shock. */
export function scaleSamples(
  files: readonly SourcedSummary[],
  factor: (round: number, id: string) => number,
): SourcedSummary[] {
  return files.map((f) => ({
    ...f,
    summary: {
      ...f.summary,
      benchmarks: f.summary.benchmarks.map((b) => ({
        ...b,
        samples: (b.samples ?? []).map((x) => x * factor(f.summary.round, b.id)),
      })),
    },
  }));
}

/**
 * The same files with each process (side file, round and benchmark) landing `factor`× slow with
 * chance `share`, independently: a contended machine's 2× jumps.
 */
export function processJumps(
  files: readonly SourcedSummary[],
  seed: number,
  share: number,
  factor = 2,
): SourcedSummary[] {
  const random = rng(seed);
  const hit = new Map<string, number>();
  for (const f of files)
    for (const b of f.summary.benchmarks)
      hit.set(`${f.summary.round}\u0000${b.id}`, random() < share ? factor : 1);
  return scaleSamples(files, (round, id) => hit.get(`${round}\u0000${id}`) ?? 1);
}
