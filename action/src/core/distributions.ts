// Distribution functions come from stdlib (well-tested numerics); this file only adapts them to
// the cases the decision rule meets: infinite degrees of freedom (a prior that says every
// benchmark is alike) means the normal distribution.
import tCdfImpl from "@stdlib/stats-base-dists-t-cdf";
import tQuantileImpl from "@stdlib/stats-base-dists-t-quantile";
import normalCdfImpl from "@stdlib/stats-base-dists-normal-cdf";
import normalQuantileImpl from "@stdlib/stats-base-dists-normal-quantile";
import digammaImpl from "@stdlib/math-base-special-digamma";
import trigammaImpl from "@stdlib/math-base-special-trigamma";

/** Above this many degrees of freedom the t distribution is the normal one to ~1e-6. */
const NORMAL_DF = 1e6;

/** P(T_df <= x); df = Infinity gives the standard normal. */
export function tCdf(x: number, df: number): number {
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  return df >= NORMAL_DF ? normalCdfImpl(x, 0, 1) : tCdfImpl(x, df);
}

/** The p-quantile of T_df; df = Infinity gives the standard normal. */
export function tQuantile(p: number, df: number): number {
  return df >= NORMAL_DF ? normalQuantileImpl(p, 0, 1) : tQuantileImpl(p, df);
}

export function digamma(x: number): number {
  return digammaImpl(x);
}

export function trigamma(x: number): number {
  return trigammaImpl(x);
}

/**
 * Solves trigamma(y) = x for y > 0. trigamma is strictly decreasing on (0, ∞), so bisection on
 * log(y) converges for every positive x without the derivative limma's Newton step needs.
 */
export function inverseTrigamma(x: number): number {
  if (!(x > 0) || !Number.isFinite(x))
    throw new RangeError(`inverseTrigamma needs a finite x > 0, got ${x}`);
  // trigamma(y) ≈ 1/y + 1/(2y²) for large y and ≈ 1/y² for small y: bracket generously.
  let lo = Math.log(Math.min(1 / x, 1 / Math.sqrt(x)) / 4);
  let hi = Math.log(Math.max(1 / x, 1 / Math.sqrt(x)) * 4 + 1);
  while (trigamma(Math.exp(lo)) < x) lo -= 2;
  while (trigamma(Math.exp(hi)) > x) hi += 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (trigamma(Math.exp(mid)) > x) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/** P(X ≥ k) for X ~ Binomial(n, p), summed term by term (n is a suite's size: small). */
export function binomialUpper(n: number, k: number, p: number): number {
  if (k <= 0) return 1;
  if (p <= 0) return 0;
  if (p >= 1) return k <= n ? 1 : 0;
  let term = (1 - p) ** n;
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    term *= ((n - i + 1) / i) * (p / (1 - p));
    if (i >= k) sum += term;
  }
  return Math.min(1, sum);
}
