// A/A stress cases on the recorded suites: every run-order pattern (2^k label swaps) of k = 4,
// 5 and 8 rounds, a shared round shock (one round of head × 1.10 or × 0.90 for every benchmark)
// in every round position, and both together. The share of comparisons that fail the gate must
// stay at or below the false-discovery level q in every case.
// Usage: node bench/aa-stress.ts [--suite NAME] [--k 4,5,8] [--designs 5]
import path from "node:path";
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import { aaSuites, gateFailure, shockRound, subsets, swapped, type AaSuite } from "./aa-data.ts";
import { ROOT, option, writeResult } from "./support.ts";

export interface StressCase {
  readonly comparisons: number;
  readonly gateFailures: number;
  readonly falseRegressions: number;
  readonly suiteShiftFailures: number;
  readonly share: number;
}

/**
 * Every order pattern (2^k label swaps) of k-round designs taken from the recorded rounds: up to
 * `maxDesigns` sets of k rounds (all of them when there are fewer), each with every pattern, and
 * for the shock variants a shock in each of the k rounds in turn.
 */
export function stress(
  suite: AaSuite,
  k: number,
  variants: readonly ("none" | "shock+" | "shock-")[],
  maxDesigns: number,
): Record<string, StressCase & { worstDesign: number }> {
  const settings = resolveSettings();
  const all = subsets(suite.rounds, k);
  // Evenly spaced through the lexicographic list, so designs cover early and late rounds.
  const step = Math.max(1, all.length / maxDesigns);
  const designs: number[][] = [];
  for (let i = 0; i < all.length && designs.length < maxDesigns; i += step)
    designs.push(all[Math.floor(i)] as number[]);
  const out: Record<string, StressCase & { worstDesign: number }> = {};
  for (const variant of variants) {
    let comparisons = 0;
    let gateFailures = 0;
    let falseRegressions = 0;
    let suiteShiftFailures = 0;
    let worstDesign = 0;
    for (const rounds of designs) {
      let designComparisons = 0;
      let designFailures = 0;
      for (let mask = 0; mask < 1 << k; mask++) {
        const aa = swapped(suite, rounds, mask);
        const heads =
          variant === "none"
            ? [aa.head]
            : rounds.map((_, i) => shockRound(aa.head, i, variant === "shock+" ? 1.1 : 0.9));
        for (const head of heads) {
          const report = compare(aa.base, head, { settings });
          const f = gateFailure(report);
          designComparisons++;
          if (f.gate) designFailures++;
          if (f.shift) suiteShiftFailures++;
          falseRegressions += report.counts.regressed;
        }
      }
      comparisons += designComparisons;
      gateFailures += designFailures;
      worstDesign = Math.max(worstDesign, designFailures / designComparisons);
    }
    out[variant] = {
      comparisons,
      gateFailures,
      falseRegressions,
      suiteShiftFailures,
      share: gateFailures / comparisons,
      worstDesign,
    };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = option("suite", "");
  const ks = option("k", "4,5,8").split(",").map(Number);
  const maxDesigns = Number(option("designs", "5"));
  const results: Record<string, unknown> = {};
  for await (const suite of aaSuites(path.join(ROOT, "bench/data"), only)) {
    const name = suite.name;
    const perK: Record<string, unknown> = {};
    for (const k of ks) {
      if (k > suite.rounds) continue;
      const t0 = performance.now();
      perK[`k${k}`] = stress(suite, k, ["none", "shock+", "shock-"], maxDesigns);
      process.stderr.write(
        `${name} k=${k}: ${((performance.now() - t0) / 1000).toFixed(1)} s ${JSON.stringify(perK[`k${k}`])}\n`,
      );
    }
    results[name] = { benchmarks: suite.ids.length, rounds: suite.rounds, ...perK };
  }
  writeResult("aa-stress", results);
}
