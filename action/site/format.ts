// Numbers, steps and dates as the page shows them.

const NUMBER = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 });

export function formatValue(value: number | null | undefined, unit: string): string {
  return value === null || value === undefined ? "—" : `${NUMBER.format(value)} ${unit}`;
}

/** Axis labels: short (1.25M, 909.2K), no unit (the axis carries it), so they never run into it. */
const TICK = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 4 });

export function formatTick(value: number): string {
  return TICK.format(value);
}

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
