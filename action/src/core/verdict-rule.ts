// The one rule that turns a tested change into a verdict, for a benchmark and for a suite's
// shift, at the final look (decision.ts) and at every sequential look (sequential.ts): regressed
// when Benjamini–Hochberg rejects "slowdown ≤ δ0" AND the estimate is at least the fail
// threshold; improved likewise in the other direction; a regression above the fail threshold
// ruled out when the interval's upper end is at or below it; else still open (inconclusive).
// Kept in one place so the looks that stop a benchmark and the report that names its verdict can
// never disagree at a boundary.
import type { CompareSettings } from "./settings.ts";
import { tQuantile } from "./distributions.ts";

export type Outcome = "regressed" | "improved" | "ruled-out" | "open";

/**
 * Half-width of a change's interval on the log scale: the confidence level, widened for a
 * sequential look to 1 − (1 − confidence)·weight so that it holds over every look at once.
 */
export function halfWidth(
  settings: CompareSettings,
  weight: number,
  df: number,
  se: number,
): number {
  return tQuantile(1 - ((1 - settings.confidence) * weight) / 2, df) * se;
}

/**
 * The verdict of one tested change: `estimate` and the interval's `upper` end on the log scale,
 * BH-adjusted q-values in both directions, and F = ln(1 + fail threshold).
 */
export function judge(
  change: { readonly estimate: number; readonly upper: number },
  q: { readonly up: number; readonly down: number },
  settings: CompareSettings,
  F: number,
): Outcome {
  if (q.up <= settings.q && change.estimate >= F) return "regressed";
  if (q.down <= settings.q && change.estimate <= -F) return "improved";
  return change.upper <= F ? "ruled-out" : "open";
}
