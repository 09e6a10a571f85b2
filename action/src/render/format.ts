// Human-readable numbers for the comment and the terminal. Deterministic (no locale APIs), so
// snapshots are stable on every machine. Negative numbers use the real minus sign U+2212,
// which is as wide as "+" and keeps columns aligned; machines read report.json, not this text.
// The returned strings may contain a unit taken from the report: escape them before output.

/** The minus sign used for every negative number. */
export const MINUS = "\u2212";

/** Shown for a missing or non-finite value. */
export const NO_VALUE = "—";

const TIME_UNITS = [
  { symbol: "ns", scale: 1 },
  { symbol: "µs", scale: 1e3 },
  { symbol: "ms", scale: 1e6 },
  { symbol: "s", scale: 1e9 },
] as const;

/** `1234` → `1,234` (integers only, ASCII digits). */
export function groupDigits(n: number): string {
  const digits = Math.abs(Math.round(n)).toString();
  if (digits.includes("e")) return digits; // ≥ 1e21: toString is exponential already
  return digits.replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
}

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

/**
 * A relative change as a signed percentage with one decimal: `0.034` → `+3.4 %`,
 * `-0.12` → `−12.0 %`; `0.0 %` when it rounds to zero. From +1,000 % on it is the ratio
 * (`22.2` → `×23.2`): "+2221873 %" reads as precision a run never has, "×22,220" as what it is.
 */
export function formatChange(relative: number | null | undefined): string {
  if (relative === null || relative === undefined || !Number.isFinite(relative)) return NO_VALUE;
  if (relative * 100 >= PERCENT_LIMIT) return ratioText(1 + relative);
  return `${percentBody(relative, true)} %`;
}

/** A relative magnitude without a sign: `0.012` → `1.2 %`; from 1,000 % on the ratio, `×11`. */
export function formatPercent(relative: number | null | undefined): string {
  if (relative === null || relative === undefined || !Number.isFinite(relative)) return NO_VALUE;
  if (Math.abs(relative) * 100 >= PERCENT_LIMIT) return ratioText(1 + Math.abs(relative));
  return `${percentBody(relative, false)} %`;
}

/** Percentages from this magnitude on are shown as ratios (rounded: 999.96 % is one too). */
const PERCENT_LIMIT = 999.95;

/** `×7.2`, `×23`, `×22,220`: two significant digits are all such a figure carries. */
function ratioText(ratio: number): string {
  const body =
    ratio >= 100 ? groupDigits(Number(ratio.toPrecision(2))) : String(Number(ratio.toPrecision(2)));
  return `×${body}`;
}

/**
 * Text written by the statistics (reasons, smells, notes) with every percentage of magnitude
 * ≥ 1,000 turned into its ratio, as formatChange shows them: "worst +2221873 %" → "worst ×22,000".
 * Smaller percentages and everything else are left as they are.
 */
export function tamePercents(text: string): string {
  return text.replace(
    /([+\u2212-]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?) ?%/gu,
    (match: string, sign: string, digits: string) => {
      const pct = Number(digits.replaceAll(",", ""));
      if (!Number.isFinite(pct) || pct < PERCENT_LIMIT) return match;
      // A fall cannot pass −100 %, so a large figure is always a rise (or a magnitude).
      return sign === "+" || sign === "" ? ratioText(1 + pct / 100) : match;
    },
  );
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

function percentBody(relative: number, signed: boolean): string {
  const pct = relative * 100;
  const abs = Math.abs(pct);
  const body = abs >= 1000 ? groupDigits(abs) : abs.toFixed(1);
  if (body === "0.0") return body;
  return withSign(pct, body, signed);
}

function withSign(value: number, body: string, plus: boolean): string {
  if (value < 0 && !/^[0.,]+$/u.test(body)) return MINUS + body;
  return plus && value > 0 ? `+${body}` : body;
}
