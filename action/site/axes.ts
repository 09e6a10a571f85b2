// The chart's axes. x: commits by position, each tick naming its commit number, and the date
// only where it changes, so two commits of one day never both read as that day. y: a range that
// says how much it spans: never narrower than ±2.5 % around its middle (a 208 → 210 µs step
// fills a fifth of the height, not all of it), from zero when that is in reach, and written out
// beside the chart ("y: 205–212 µs (±1.7 %)"), since a canvas axis is easy to misread.
import type uPlot from "uplot";
import { formatInUnit, formatNumberIn, type DisplayUnit } from "../src/site/display-units.ts";
import { shortDate } from "./format.ts";

/** The narrowest range drawn, as a share of the middle value on each side. */
const MIN_HALF_SPAN = 0.025;
/** Room above and below the data, as a share of its span. */
const PADDING = 0.08;

export const X_INCREMENTS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000];

/**
 * Tick labels for commit positions: "#12", with the date under it when it differs from the
 * previous tick's (uPlot draws a "\n" as a second line).
 */
export function commitTicks(dates: readonly string[], splits: readonly number[]): string[] {
  let previous = "";
  return splits.map((i) => {
    if (!Number.isInteger(i) || i < 0 || i >= dates.length) return "";
    const date = shortDate(dates[i]);
    const label = date === previous ? `#${i + 1}` : `#${i + 1}\n${date}`;
    previous = date;
    return label;
  });
}

/** Half a commit of room at each end, so the first and last points are not on the border. */
export function commitRange(_u: uPlot, min: number, max: number): uPlot.Range.MinMax {
  return [min - 0.5, max + 0.5];
}

/** The y range for data from `min` to `max` (in the drawn unit). */
export function honestRange(_u: uPlot, min: number, max: number): uPlot.Range.MinMax {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const mid = (min + max) / 2;
  let half = Math.max(((max - min) / 2) * (1 + 2 * PADDING), Math.abs(mid) * MIN_HALF_SPAN);
  if (half === 0) half = 1;
  let low = mid - half;
  const high = mid + half;
  // Non-negative data never gets a negative axis; near zero already, it starts at zero.
  if (min >= 0 && (low < 0 || low < half)) low = 0;
  return [low, high];
}

/** "y: 205–212 µs (±1.7 %)", or "y: 0–212 µs (from zero)", for a range in the drawn unit. */
export function spanText(low: number, high: number, unit: DisplayUnit): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "";
  const stored = (v: number): number => v * unit.scale;
  const range = `${formatNumberIn(stored(low), unit)}–${formatInUnit(stored(high), unit)}`;
  if (low === 0) return `y: ${range} (from zero)`;
  const mid = (low + high) / 2;
  const percent = mid === 0 ? Infinity : (((high - low) / 2) * 100) / Math.abs(mid);
  const written = percent >= 10 ? percent.toFixed(0) : percent.toFixed(1);
  return `y: ${range} (±${written} %)`;
}
