// Robust location and scale for the suite-wide parts of the decision (a round's centre, the
// suite's shift). A round's log ratios mix many unchanged benchmarks with a few that really
// changed and a few that had a bad run; the centre must follow the majority, not the tails.
import { median } from "./statistics.ts";

/**
 * The MAD's efficiency relative to the standard deviation at the normal model: a scale read from
 * n values by the MAD carries the information of ≈ 0.37·(n − 1) degrees of freedom.
 */
export const MAD_EFFICIENCY = 0.37;

/** 1.4826 · median absolute deviation: the normal-consistent robust standard deviation. */
export function madScale(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const m = median(values);
  return 1.4826 * median(values.map((v) => Math.abs(v - m)));
}

/**
 * Tukey's biweight M-estimate of location (c = 4.685: 95 % efficiency on normal data), started
 * from the median with the MAD as its scale. Values beyond c·scale get weight zero, so a subset
 * of benchmarks that slowed by ×2 does not drag the centre of a round the way it drags a mean,
 * and less than the median moves when a fifth of the values sit on one side.
 */
export function biweightLocation(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  let centre = median(values);
  const scale = madScale(values);
  if (!(scale > 0)) return centre;
  const c = 4.685 * scale;
  for (let iteration = 0; iteration < 30; iteration++) {
    let num = 0;
    let den = 0;
    for (const v of values) {
      const u = (v - centre) / c;
      if (Math.abs(u) >= 1) continue;
      const w = (1 - u * u) ** 2;
      num += w * v;
      den += w;
    }
    if (!(den > 0)) break;
    const next = num / den;
    const moved = Math.abs(next - centre);
    centre = next;
    if (moved <= 1e-12 * scale) break;
  }
  return centre;
}
