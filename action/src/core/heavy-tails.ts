// How heavy the tails of one run's noise are, learnt from the history (docs/statistics.md §14).
// On a shared machine a run now and then lands 20–40 % off for many benchmarks at once while
// most runs agree within a few per cent. A normal model with the history's variance then calls
// such a run a one-in-a-thousand event that the history itself shows once in fifteen runs, and
// a one-run comparison that happens to include it is a false alarm. So each run's ln(statistic)
// is modelled as level + s·T with T ~ Student t with ν degrees of freedom, ν shared by the suite
// (one machine, one tail) and fitted by maximum likelihood over all its benchmarks' records,
// s and the level per benchmark. ν = ∞ is the normal model; a fit cannot claim lighter tails
// than that. A comparison of one run per side then asks how often T₁ − T₂ reaches the observed
// difference. Pure.
import { tCdf, tQuantile } from "./distributions.ts";

/** The ν values tried (∞ = normal); a finer grid changes p-values by less than their error. */
const NU_GRID = [1, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 30, Infinity] as const;

interface TailFit {
  /** Degrees of freedom of the t distribution of one run's noise (Infinity: normal). */
  readonly nu: number;
  /** Per benchmark (in input order): the location and scale s of its records. */
  readonly fits: readonly { readonly location: number; readonly scale: number }[];
}

/** ln of the t density with ν df at z (scale 1), up to the constant per ν added in `constant`. */
function logDensity(z: number, nu: number): number {
  if (nu === Infinity) return -0.5 * z * z;
  return -((nu + 1) / 2) * Math.log1p((z * z) / nu);
}

/** ln of the normalising constant of the t density with ν df. */
function constant(nu: number): number {
  if (nu === Infinity) return -0.5 * Math.log(2 * Math.PI);
  return lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * Math.log(nu * Math.PI);
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7): enough digits for a likelihood comparison. */
function lgamma(x: number): number {
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531,
    -176.6150291621406, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const y = x - 1;
  let a = c[0] as number;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] as number) / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Maximum-likelihood location and scale of `xs` under t_ν (EM: iteratively reweighted). */
function fitOne(
  xs: readonly number[],
  nu: number,
): { location: number; scale: number; ll: number } {
  const n = xs.length;
  let location = xs.reduce((s, x) => s + x, 0) / n;
  let scale2 = xs.reduce((s, x) => s + (x - location) ** 2, 0) / n;
  for (let iteration = 0; iteration < 50 && scale2 > 0 && nu !== Infinity; iteration++) {
    let sw = 0;
    let swx = 0;
    let swr = 0;
    for (const x of xs) {
      const w = (nu + 1) / (nu + ((x - location) * (x - location)) / scale2);
      sw += w;
      swx += w * x;
    }
    const next = swx / sw;
    for (const x of xs) {
      const r2 = (x - next) * (x - next);
      swr += ((nu + 1) / (nu + r2 / scale2)) * r2;
    }
    const nextScale2 = swr / n;
    const settled = Math.abs(next - location) < 1e-12 && Math.abs(nextScale2 / scale2 - 1) < 1e-9;
    location = next;
    scale2 = nextScale2;
    if (settled) break;
  }
  const scale = Math.sqrt(scale2);
  if (!(scale > 0)) return { location, scale: 0, ll: 0 };
  let ll = n * (constant(nu) - Math.log(scale));
  for (const x of xs) ll += logDensity((x - location) / scale, nu);
  return { location, scale, ll };
}

/**
 * Fits ν (shared) and each benchmark's location and scale to the records `series[i]` (ln
 * values). Benchmarks whose records are all equal carry no information on ν.
 */
export function fitTails(series: readonly (readonly number[])[]): TailFit {
  let best: { nu: number; ll: number; fits: { location: number; scale: number }[] } | undefined;
  for (const nu of NU_GRID) {
    let ll = 0;
    const fits = series.map((xs) => {
      const f = fitOne(xs, nu);
      if (f.scale > 0) ll += f.ll;
      return { location: f.location, scale: f.scale };
    });
    if (best === undefined || ll > best.ll) best = { nu, ll, fits };
  }
  return best === undefined ? { nu: Infinity, fits: [] } : { nu: best.nu, fits: best.fits };
}

/**
 * P(T₁ − T₂ ≥ x) for independent T₁, T₂ ~ t_ν. By symmetry of the sum A + B (B = −T₂):
 * P(A + B ≥ x) = 2∫_{x/2}^∞ f(a)[F(a) − F(x − a)] da for x ≥ 0, integrated on a tangent map
 * wide enough to hold both the "two halves" and the "one big jump" ways of getting there.
 */
export function tDifferenceTail(x: number, nu: number): number {
  if (nu === Infinity) return 1 - tCdf(x / Math.SQRT2, Infinity);
  if (x < 0) return 1 - tDifferenceTail(-x, nu);
  const width = Math.max(1, x / 2);
  const points = 400;
  const c = Math.exp(constant(nu));
  let sum = 0;
  for (let i = 0; i < points; i++) {
    const theta = ((i + 0.5) / points) * (Math.PI / 2);
    const u = Math.tan(theta) * width;
    const du = width / (Math.cos(theta) * Math.cos(theta));
    const a = x / 2 + u;
    const f = c * Math.exp(logDensity(a, nu));
    sum += f * (tCdf(a, nu) - tCdf(x - a, nu)) * du;
  }
  return Math.min(1, Math.max(0, 2 * sum * (Math.PI / 2 / points)));
}

/** The x with P(T₁ − T₂ ≥ x) = p, for 0 < p < 1 (bisection on the tail, which falls with x). */
export function tDifferenceQuantile(p: number, nu: number): number {
  if (p >= 0.5) return -tDifferenceQuantile(1 - p, nu);
  if (nu === Infinity) return Math.SQRT2 * tQuantile(1 - p, Infinity);
  let lo = 0;
  let hi = 1;
  while (tDifferenceTail(hi, nu) > p && hi < 1e12) hi *= 4;
  for (let i = 0; i < 60 && hi - lo > 1e-9 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tDifferenceTail(mid, nu) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
