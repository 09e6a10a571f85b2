// Human-readable numbers for the comment and the terminal. Deterministic (no locale APIs), so
// snapshots are stable on every machine. Negative numbers use the real minus sign U+2212,
// which is as wide as "+" and keeps columns aligned; machines read report.json, not this text.
// The returned strings may contain a unit taken from the report: escape them before output.
import { formatChange, NO_VALUE, groupDigits, withSign } from "../number-text.ts";

// The relative-change rule (from ±1,000 % a ratio) and the digits live in number-text.ts, which
// the core's reasons use too (core cannot import render/).
export {
  formatChange,
  formatPercent,
  groupDigits,
  MINUS,
  NO_VALUE,
  tamePercents,
} from "../number-text.ts";

const TIME_UNITS = [
  { symbol: "ns", scale: 1 },
  { symbol: "µs", scale: 1e3 },
  { symbol: "ms", scale: 1e6 },
  { symbol: "s", scale: 1e9 },
] as const;

/** A count with thousands separators: `20000` → `20,000`. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? withSign(n, groupDigits(n), false) : NO_VALUE;
}

/** Three significant digits, no unit: `0.5` → `0.500`, `1234.5` → `1,235`, `12` → `12`. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const abs = Math.abs(value);
  let body: string;
  if (abs >= 1e15 || (abs !== 0 && abs < 1e-6)) body = abs.toExponential(2);
  else if (Number.isInteger(abs) || abs >= 1000) body = groupDigits(abs);
  else body = abs.toPrecision(3);
  return withSign(value, body, false);
}

/** Up to 3 significant digits without trailing zeros, for settings: `0.05` → `0.05`. */
export function formatShort(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const abs = Math.abs(value);
  const body = abs >= 1000 ? groupDigits(abs) : String(Number(abs.toPrecision(3)));
  return withSign(value, body, false);
}

/** A time in nanoseconds with 3 significant digits: `456 ns`, `1.23 µs`, `2.10 ms`, `1.50 s`. */
export function formatTime(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return NO_VALUE;
  const abs = Math.abs(ns);
  if (abs === 0) return "0 ns";
  for (const unit of TIME_UNITS) {
    const scaled = abs / unit.scale;
    // Pick the unit after rounding, so 999.7 ns becomes 1.00 µs rather than 1.00e+3 ns.
    const rounded = Number(scaled.toPrecision(3));
    if (rounded < 1000 || unit.symbol === "s") {
      const body = rounded >= 1000 ? groupDigits(scaled) : scaled.toPrecision(3);
      return withSign(ns, `${body} ${unit.symbol}`, false);
    }
  }
  return NO_VALUE; // unreachable: the last unit always returns
}

/** A value in its unit: time when `unit` is `ns`, else 3 significant digits and the unit as given. */
export function formatValue(value: number | null | undefined, unit: string | undefined): string {
  if (unit === "ns") return formatTime(value);
  // Relative quantities (max_regression budgets) are stored as fractions: show percentages.
  if (unit === "fraction") return formatChange(value);
  const number = formatNumber(value);
  if (number === NO_VALUE || unit === undefined || unit === "") return number;
  return `${number} ${unit}`;
}

/** A speedup factor with 3 significant digits: `8.1×`, `31.2×`, `0.953×`, `1.23e+4×`. */
export function formatFactor(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const abs = Math.abs(value);
  const body =
    abs >= 1e5 || (abs !== 0 && abs < 1e-3)
      ? abs.toExponential(2)
      : String(Number(abs.toPrecision(3)));
  return `${withSign(value, body, false)}×`;
}

/** A confidence interval of a relative change: `[−1.2 %, +5.6 %]`. */
export function formatCi(ci: readonly number[] | null | undefined): string {
  const lo = ci?.[0];
  const hi = ci?.[1];
  if (lo === undefined || hi === undefined || !Number.isFinite(lo) || !Number.isFinite(hi)) {
    return NO_VALUE;
  }
  return `[${formatChange(lo)}, ${formatChange(hi)}]`;
}
