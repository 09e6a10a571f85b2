// Numbers as text, pure and deterministic (no locale APIs, so snapshots are stable on every
// machine): the thousands separator, the minus sign and the rule for relative changes that both
// the statistics' own texts (core/: the reasons and notes in report.json) and everything render/
// writes follow. From ±1,000 % on a relative change is a ratio, `×26` or `×1,400,000`:
// "+135770058 %" reads as precision a run never has. Negative numbers use the real minus sign
// U+2212, which is as wide as "+" and keeps columns aligned.

/** The minus sign used for every negative number. */
export const MINUS = "\u2212";

/** Shown for a missing or non-finite value. */
export const NO_VALUE = "—";

/** `1234` → `1,234` (integers only, ASCII digits). */
export function groupDigits(n: number): string {
  const digits = Math.abs(Math.round(n)).toString();
  if (digits.includes("e")) return digits; // ≥ 1e21: toString is exponential already
  return digits.replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
}

/**
 * A relative change as a signed percentage with one decimal: `0.034` → `+3.4 %`,
 * `-0.12` → `−12.0 %`; `0.0 %` when it rounds to zero. From +1,000 % on it is the ratio
 * (`22.2` → `×23.2`): "+2221873 %" reads as precision a run never has, "×22,220" as what it is.
 */
export function formatChange(relative: number | null | undefined): string {
  return changeText(relative, 1);
}

/** A relative magnitude without a sign: `0.012` → `1.2 %`; from 1,000 % on the ratio, `×11`. */
export function formatPercent(relative: number | null | undefined): string {
  return magnitudeText(relative, 1);
}

/**
 * formatChange for an exact count, whose change is known to the unit: below 1 % two decimals
 * (`+0.50 %` is a real change, not a rounded `+0.5 %` of noise); from +1,000 % the ratio, `×31`.
 */
export function formatExactChange(relative: number | null | undefined): string {
  return changeText(relative, 2);
}

/** formatPercent with formatExactChange's two decimals below 1 %: `0.25 %`, `1.0 %`, `×31`. */
export function formatExactPercent(relative: number | null | undefined): string {
  return magnitudeText(relative, 2);
}

function changeText(relative: number | null | undefined, smallDigits: number): string {
  if (relative === null || relative === undefined || !Number.isFinite(relative)) return NO_VALUE;
  if (relative * 100 >= PERCENT_LIMIT) return ratioText(1 + relative);
  return `${percentBody(relative, true, smallDigits)} %`;
}

function magnitudeText(relative: number | null | undefined, smallDigits: number): string {
  if (relative === null || relative === undefined || !Number.isFinite(relative)) return NO_VALUE;
  if (Math.abs(relative) * 100 >= PERCENT_LIMIT) return ratioText(1 + Math.abs(relative));
  return `${percentBody(relative, false, smallDigits)} %`;
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
 * Text with every percentage of magnitude ≥ 1,000 turned into its ratio, as formatChange shows
 * them: "worst +2221873 %" → "worst ×22,000". Smaller percentages and everything else are left as
 * they are. The core's reasons and notes use formatChange themselves, and every report a renderer
 * shows is one this process just decided (mode: report decides again; no report.json is read
 * back to be shown), so no old report needs it. It stays for the texts not written here: a smell's
 * evidence still writes some percentages with toFixed (the within-run CV in
 * smells/variance-smells.ts has no upper bound), and a figure like that must not reach the
 * comment, the terminal or the check as "+135770058 %".
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

/** The digits of a percentage: `smallDigits` decimals below 1 %, one above, grouped from 1,000. */
function percentBody(relative: number, signed: boolean, smallDigits: number): string {
  const pct = relative * 100;
  const abs = Math.abs(pct);
  const digits = abs !== 0 && abs < 1 ? smallDigits : 1;
  const body = abs >= 1000 ? groupDigits(abs) : abs.toFixed(digits);
  if (/^0\.0+$/u.test(body)) return body;
  return withSign(pct, body, signed);
}

/** `body` (the magnitude's digits) with the sign of `value`: minus unless it reads as zero. */
export function withSign(value: number, body: string, plus: boolean): string {
  if (value < 0 && !/^[0.,]+$/u.test(body)) return MINUS + body;
  return plus && value > 0 ? `+${body}` : body;
}
