// The unit a history page's chart is drawn in: one per series, chosen from its values, so an
// axis reads "22.5 ms" rather than "22.5M ns" and the tooltip, the card and the axis agree.
// Pure, and imported by the browser bundle (action/site) as well as tested here.
//
// The steps follow the PR comment (render/format.ts): times in ns, µs, ms and s with three
// significant digits, the U+2212 minus, and grouped digits from 1,000 on. Sizes step by 1,024
// (KiB, MiB, GiB: what allocators and binaries are measured in); rates per second and counts
// such as instructions take SI prefixes (12.3k req/s, 15.6M instructions). What the stored unit
// is, is the ingest's rule (ingest/units.ts), so a series imported as "us/iter" or "MiB/s" is
// recognized the same way as one benchgate recorded in ns or B/s. A unit outside those families
// is shown as given after the number, scaled by nothing.
import { normalizeUnit } from "../ingest/units.ts";
import { MINUS, NO_VALUE, formatValue, groupDigits } from "../render/format.ts";

export interface DisplayUnit {
  /** Divide a stored value by this to get the number shown. */
  readonly scale: number;
  /** The y axis' label and the card's unit badge: "µs", "MiB", "M instructions". */
  readonly label: string;
  /** Written right after a number: " µs", " MiB", "M instructions", "k req/s". */
  readonly suffix: string;
  /** The series' unit as stored, for values of a unit outside every family. */
  readonly stored: string;
  /** False for a unit outside every family: its values are shown as the comment shows them. */
  readonly known: boolean;
  /**
   * The values are whole counts shown without a prefix (`2 hits`, `950 blocks`): written
   * without padding decimals, and the axis never steps by a fraction of one.
   */
  readonly whole: boolean;
}

interface Step {
  readonly prefix: string;
  /** The step's size in the family's base unit (ns, B, or one). */
  readonly size: number;
}

const TIME: readonly Step[] = [
  { prefix: "ns", size: 1 },
  { prefix: "µs", size: 1e3 },
  { prefix: "ms", size: 1e6 },
  { prefix: "s", size: 1e9 },
];

const BINARY: readonly Step[] = ["", "Ki", "Mi", "Gi", "Ti"].map((prefix, i) => ({
  prefix,
  size: 1024 ** i,
}));

const SI: readonly Step[] = ["", "k", "M", "G", "T"].map((prefix, i) => ({
  prefix,
  size: 1000 ** i,
}));

/**
 * Counts the valgrind tools report that the ingest's unit rule does not list (it needs only a
 * direction for them, and smaller is better is what it assumes): they take SI prefixes too.
 */
const MORE_COUNTS: ReadonlySet<string> = new Set(["hits", "accesses", "blocks", "errors"]);

/** How a family writes a step: "µs" alone, "KiB" glued to the rest, "k" before a spaced unit. */
type Family = { readonly count?: boolean } & (
  | { readonly steps: readonly Step[]; readonly style: "time" }
  | { readonly steps: readonly Step[]; readonly style: "glued"; readonly rest: string }
  | { readonly steps: readonly Step[]; readonly style: "spaced"; readonly rest: string }
);

/**
 * The unit to draw `unit`'s series in: the largest step at which the series' typical value (the
 * median of its absolute values) is still at least 1. One outlier does not move the whole chart
 * to another unit; it reads 2,000 ms beside the rest at 5 ms.
 */
export function chooseDisplayUnit(unit: string, values: readonly (number | null)[]): DisplayUnit {
  const family = familyOf(unit);
  if (family === null) {
    return {
      scale: 1,
      label: unit,
      suffix: unit === "" ? "" : ` ${unit}`,
      stored: unit,
      known: false,
      whole: false,
    };
  }
  const toBase = family.factor;
  const typical = typicalMagnitude(values) * toBase;
  let chosen = family.steps[0] as Step;
  for (const step of family.steps) {
    // After rounding to three digits, as the comment does: 999.7 ns is 1.00 µs, not 1,000 ns.
    if (typical > 0 && Number((typical / step.size).toPrecision(3)) >= 1) chosen = step;
  }
  return {
    scale: chosen.size / toBase,
    ...written(family, chosen),
    stored: unit,
    known: true,
    whole: family.count === true && chosen.size === 1,
  };
}

function written(family: Family, step: Step): { label: string; suffix: string } {
  switch (family.style) {
    case "time":
      return { label: step.prefix, suffix: ` ${step.prefix}` };
    case "glued":
      return { label: `${step.prefix}${family.rest}`, suffix: ` ${step.prefix}${family.rest}` };
    case "spaced":
      return {
        label: step.prefix === "" ? family.rest : `${step.prefix} ${family.rest}`,
        suffix: `${step.prefix} ${family.rest}`,
      };
  }
}

/** The family of a stored unit and the factor from it to the family's base, or null. */
function familyOf(unit: string): (Family & { readonly factor: number }) | null {
  if (MORE_COUNTS.has(unit))
    return { steps: SI, style: "spaced", rest: unit, factor: 1, count: true };
  const normal = normalizeUnit(unit);
  const factor = normal.factor;
  if (!(factor > 0) || !Number.isFinite(factor)) return null;
  switch (normal.kind) {
    case "time":
      return { steps: TIME, style: "time", factor };
    case "size":
    case "rate": {
      // B, B/op, B/s step by 1,024; bit and bit/s by 1,000, glued as kbit/s is.
      if (/^B(\/|$)/u.test(normal.unit))
        return { steps: BINARY, style: "glued", rest: normal.unit, factor };
      if (/^bit(\/|$)/u.test(normal.unit))
        return { steps: SI, style: "glued", rest: normal.unit, factor };
      // req/s, ops/s; a word that means a rate by itself (qps, kHz) has no place for a prefix.
      if (normal.unit.endsWith("/s"))
        return { steps: SI, style: "spaced", rest: normal.unit, factor };
      return null;
    }
    case "count":
      return { steps: SI, style: "spaced", rest: normal.unit, factor, count: true };
    case "unknown":
      return null;
  }
}

function typicalMagnitude(values: readonly (number | null)[]): number {
  // A typed array sorts numerically without a comparator call per step: the page picks a unit
  // for each of ~200 series of ~1,000 values while it opens.
  const all = new Float64Array(values.length);
  let n = 0;
  for (const v of values) if (v !== null && Number.isFinite(v)) all[n++] = Math.abs(v);
  const sorted = all.subarray(0, n).sort();
  if (sorted.length === 0) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A stored value in the series' display unit: `15.6 ms`, `12.3k req/s`, `—` when missing. */
export function formatInUnit(value: number | null | undefined, unit: DisplayUnit): string {
  if (!unit.known) return formatValue(value, unit.stored);
  const number = formatNumberIn(value, unit);
  return number === NO_VALUE ? number : `${number}${unit.suffix}`;
}

/** The number alone, as formatInUnit writes it: for an interval after a value with its unit. */
export function formatNumberIn(value: number | null | undefined, unit: DisplayUnit): string {
  if (!unit.known) return formatValue(value, "");
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const scaled = value / unit.scale;
  const abs = Math.abs(scaled);
  if (abs === 0) return "0";
  let body: string;
  // A count below 1,000 reads as counted: "2 hits", and a median between two counts "2.5".
  if (unit.whole && abs < 999.5) body = String(Number(abs.toPrecision(3)));
  else if (abs >= 1e15 || abs < 1e-6) body = abs.toExponential(2);
  else if (Number(abs.toPrecision(3)) >= 1000) body = groupDigits(abs);
  else body = abs.toPrecision(3);
  return scaled < 0 ? `${MINUS}${body}` : body;
}

/** A unit outside every family keeps the short ticks the page always had: 22.5M, 909.2K. */
const COMPACT = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 4 });

/**
 * An axis tick, already in the display unit, with as many decimals as the axis' increment has
 * (0.25 → two), so neighbouring ticks never read the same; no unit: the axis label carries it.
 */
export function formatTick(value: number, increment: number, unit: DisplayUnit): string {
  if (!Number.isFinite(value)) return "";
  if (!unit.known) return COMPACT.format(value);
  const decimals = decimalsOf(increment);
  const fixed = Math.abs(value).toFixed(decimals);
  if (/^[0.]+$/u.test(fixed)) return fixed;
  const [whole = "", fraction] = fixed.split(".");
  const body = `${groupDigits(Number(whole))}${fraction === undefined ? "" : `.${fraction}`}`;
  return value < 0 ? `${MINUS}${body}` : body;
}

/** Decimal places of an increment, read from its shortest form (0.1 + 0.2 counts as 0.3). */
function decimalsOf(increment: number): number {
  if (!Number.isFinite(increment) || increment <= 0) return 0;
  const text = String(Number(increment.toPrecision(6)));
  const exponent = /e-(\d+)$/u.exec(text);
  if (exponent !== null) {
    const mantissa = text.slice(0, exponent.index).split(".")[1] ?? "";
    return Math.min(12, Number(exponent[1]) + mantissa.length);
  }
  return Math.min(12, (text.split(".")[1] ?? "").length);
}
