// Empirical-Bayes variance moderation (Smyth 2004, limma's fitFDist): the per-benchmark
// variances of the per-round log ratio are treated as draws s²_i ~ s0² · χ²_{d_i}/d_i scaled by
// a common inverse-chi-square prior; the prior's (s0², d0) are estimated by moments of log s².
// With few rounds each s²_i is very uncertain, and borrowing strength across the suite is what
// makes 3–5 rounds usable at all.
import { digamma, inverseTrigamma, trigamma } from "./distributions.ts";
import { mean, median } from "./statistics.ts";

export interface VariancePrior {
  /** Prior variance s0². */
  readonly variance: number;
  /** Prior degrees of freedom d0; Infinity when the variances are no more spread than chance. */
  readonly df: number;
}

/**
 * Fits the prior to variances `s2[i]` with residual degrees of freedom `df[i]`. Returns
 * undefined when fewer than two usable variances exist (nothing to borrow from).
 */
export function fitVariancePrior(
  s2: readonly number[],
  df: readonly number[],
): VariancePrior | undefined {
  const xs: number[] = [];
  const ds: number[] = [];
  for (let i = 0; i < s2.length; i++) {
    const x = s2[i] as number;
    const d = df[i] as number;
    if (Number.isFinite(x) && x >= 0 && d > 0 && Number.isFinite(d)) {
      xs.push(x);
      ds.push(d);
    }
  }
  const n = xs.length;
  if (n < 2) return undefined;
  // Zero variances (identical rounds) have no logarithm: floor them as limma does, relative to
  // the median so the floor is unit-free.
  let m = median(xs);
  if (!(m > 0)) m = Math.max(...xs);
  if (!(m > 0)) return { variance: 0, df: Infinity };
  const e: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = Math.max(xs[i] as number, 1e-5 * m);
    const half = (ds[i] as number) / 2;
    e.push(Math.log(x) - digamma(half) + Math.log(half));
  }
  const emean = mean(e);
  let ss = 0;
  for (const v of e) ss += (v - emean) * (v - emean);
  const evar = ss / (n - 1) - mean(ds.map((d) => trigamma(d / 2)));
  if (evar > 0) {
    const d0 = 2 * inverseTrigamma(evar);
    return { variance: Math.exp(emean + digamma(d0 / 2) - Math.log(d0 / 2)), df: d0 };
  }
  return { variance: Math.exp(emean), df: Infinity };
}

/** The posterior (moderated) variance of one benchmark. */
export function moderatedVariance(prior: VariancePrior, s2: number, df: number): number {
  if (df <= 0 || !Number.isFinite(s2)) return prior.variance;
  if (prior.df === Infinity) return prior.variance;
  return (prior.df * prior.variance + df * s2) / (prior.df + df);
}
