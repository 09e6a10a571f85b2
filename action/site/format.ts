// Steps and dates as the page shows them; values and ticks in a series' unit are
// action/src/site/display-units.ts.

export function formatStep(step: number | null): string {
  if (step === null) return "new level";
  const percent = step * 100;
  const digits = Math.abs(percent) >= 100 ? 0 : 1;
  return `${percent >= 0 ? "+" : "−"}${Math.abs(percent).toFixed(digits)} %`;
}

/** A step is worse when it goes against the series' direction. */
export function isWorse(step: number | null, direction: string): boolean {
  if (step === null) return false;
  return direction === "bigger_is_better" ? step < 0 : step > 0;
}

export function shortSha(sha: string | undefined): string {
  return (sha ?? "").slice(0, 7);
}

/** 2026-11-22 (UTC), the axis ticks. */
export function shortDate(iso: string | undefined): string {
  const date = iso === undefined ? new Date(Number.NaN) : new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 10);
}

/** 2026-11-22 14:03 UTC, the tooltip. */
export function longDate(iso: string | undefined): string {
  const date = iso === undefined ? new Date(Number.NaN) : new Date(iso);
  return Number.isNaN(date.getTime())
    ? (iso ?? "")
    : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
