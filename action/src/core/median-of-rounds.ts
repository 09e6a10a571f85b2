// A benchmark's change from many rounds when some of them are far off (docs/statistics.md §5).
// On a shared machine whole processes land up to 2× slow: a round's log ratio then sits near 0
// or near ±0.69 (ln 2), and 15–26 % of the rounds can be beyond three robust SDs. The mean and
// the SD of the rounds follow those values, so one burst widens every interval of its benchmark
// and buries a real 5 % slowdown. From MEDIAN_MIN_ROUNDS rounds on a benchmark is judged by the
// median of its rounds instead, which follows the majority up to half of them far off on one
// side:
//
// * Standard error: the median's, π/2·S²/n, with S = 1.4826·MAD (normal-consistent; for a normal
//   core with far-off rounds around it this tracks the median's real spread, 1/(2·f(median))²/n,
//   because the MAD, like the median, reads the core). S has the information of 0.37·(n − 1)
//   degrees of freedom (the MAD's efficiency), and the test uses that many, not n − 1.
// * An exact floor under the p-value: the sign test, P(Binomial(n, ½) ≥ #{rounds above the
//   null}). It holds for any distribution of the rounds — heavy-tailed, bimodal, asymmetric —
//   assuming only that they are independent. It matters where the median itself breaks down: a
//   benchmark whose processes land in two modes equally often has half its rounds far off, and
//   when by chance more of them fall on one side the median and a small MAD sit in that mode
//   (simulated, 12 rounds: 1.3 % of A/A benchmarks beyond the 0.05 % t quantile); the sign test
//   counts 7 of 12 above and says p = 0.39.
//
// Why not Hodges–Lehmann (the median of the Walsh averages, 95.5 % efficient on normal data
// against the median's 64 %): its breakdown point is 29 %. With a quarter of the rounds 2× off
// at random, 12–20 rounds often have more than that on one side; simulated (1 % noise, 25 % of
// rounds ±ln 2), the standard error read from its signed-rank interval was typically 8.6 % at 12
// and 20 rounds, the median's (above) 0.5 % and 0.4 %. The median's cost on quiet rounds (SE ×1.25) is paid back by the
// schedule's many short rounds (docs/run.md); its failure mode under bursts is not. Pure.
import { MAD_EFFICIENCY, madScale } from "./robust.ts";
import { median } from "./statistics.ts";

/** P(X ≤ k) for X ~ Binomial(n, ½), summed in log space (no underflow for large n). */
function binomialHalfCdf(n: number, k: number): number {
  if (k < 0) return 0;
  let logTerm = -n * Math.LN2;
  let sum = 0;
  for (let i = 0; i <= Math.min(k, n); i++) {
    sum += Math.exp(logTerm);
    logTerm += Math.log(n - i) - Math.log(i + 1);
  }
  return Math.min(1, sum);
}

/**
 * Fewest rounds for the median: the smallest n at which the one-sided 2.5 % sign test still
 * confirms a change when two of its rounds landed far off on the wrong side (a burst that hit the
 * other side's processes twice): P(Binomial(n, ½) ≤ 2) ≤ 2.5 %. That first happens at n = 12.
 * With fewer rounds the sign test can hardly reach a significant p-value at all (its smallest is
 * 2⁻ⁿ), and the mean-based rule with its variance floors is kept.
 */
export const MEDIAN_MIN_ROUNDS = ((): number => {
  let n = 3;
  while (binomialHalfCdf(n, 2) > 0.025) n += 1;
  return n;
})();

interface RoundsMedian {
  readonly estimate: number;
  /** Per-round variance whose /n is the median's variance: π/2·S². */
  readonly variance: number;
  /** The degrees of freedom that variance has: 0.37·(n − 1). */
  readonly df: number;
}

/** The median of `xs` and its per-round variance π/2·S² (S = 1.4826·MAD), at any count. */
export function medianSpread(xs: readonly number[]): { estimate: number; variance: number } {
  const s = madScale(xs);
  return { estimate: median(xs), variance: (Math.PI / 2) * s * s };
}

/**
 * The median of `xs` with its per-round variance, or undefined below MEDIAN_MIN_ROUNDS values.
 * A variance of 0 (over half the rounds equal) is left to the caller's floors.
 */
export function medianOfRounds(xs: readonly number[], dfLoss = 0): RoundsMedian | undefined {
  const n = xs.length;
  if (n < MEDIAN_MIN_ROUNDS || !xs.every(Number.isFinite)) return undefined;
  return { ...medianSpread(xs), df: MAD_EFFICIENCY * Math.max(1, n - 1 - dfLoss) };
}

/**
 * The sign test's one-sided p-value that the rounds' median exceeds `nullValue`: the chance that
 * at least as many of n fair coins land heads as rounds lie above it (a round equal to the null
 * counts against the change).
 */
export function signTestUpper(xs: readonly number[], nullValue: number): number {
  const above = xs.filter((x) => x > nullValue).length;
  return 1 - binomialHalfCdf(xs.length, above - 1);
}
