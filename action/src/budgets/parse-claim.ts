// Performance claims as users write them in benchgate.yml under `claims:`
// (docs/budgets-and-golden.md, "Claims"), parsed strictly: every error names the claim's
// position and key (`/claims/2/by`).
//
//   claims:
//     - faster: "health/atomic_read"     # benchmark ids exactly as report.json writes them
//       than: "health/rwlock_read"
//       by: "≥ 5x"                       # or ">= 5x": the speedup S is at least 5
//     - faster: "parse/simd"
//       than: "parse/scalar"
//       by: "≥ 24 %"                     # at most 76 % of the time: S ≥ 1 / (1 − 0.24)
//
// S is the speedup of `faster` over `than` (core/ratios.ts): time(than)/time(faster), or for a
// bigger-is-better unit value(faster)/value(than). A percentage is the share of the time saved,
// as "24 % faster" is meant: for a rate, the share of the time per unit of work.
import { InputError } from "../errors.ts";

export interface Claim {
  /** Position in the `claims` list (0-based). */
  readonly index: number;
  readonly faster: string;
  readonly than: string;
  /** The `by` text as written, trimmed. */
  readonly by: string;
  /** The smallest speedup S the claim allows. */
  readonly bound: number;
}

const KEYS = ["faster", "than", "by"] as const;
const MAX_ID_LENGTH = 1024;
/** "≥ 5x", ">= 5 ×", "≥ 24 %", ">=24%": an at-least comparison, a number, a factor or a percentage. */
const BY = /^(?:≥|>=)\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(x|X|×|%)$/u;

/** How errors name a claim: `claim 2 ("a" faster than "b")`. */
function describeClaim(index: number, faster?: string, than?: string): string {
  const what =
    faster === undefined || than === undefined
      ? ""
      : ` (${JSON.stringify(faster)} faster than ${JSON.stringify(than)})`;
  return `claim ${index + 1}${what}`;
}

function claimError(index: number, key: string | undefined, problem: string): InputError {
  const where = key === undefined ? "" : `: ${key}`;
  return new InputError(`${describeClaim(index)}${where}: ${problem}`, {
    jsonPath: `/claims/${index}${key === undefined ? "" : `/${key}`}`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function benchmarkId(raw: Record<string, unknown>, index: number, key: "faster" | "than"): string {
  const id = raw[key];
  if (typeof id !== "string" || id.trim() === "")
    throw claimError(
      index,
      key,
      `expected a benchmark id as report.json writes it, e.g. ${key}: "lookup/binary", got ${JSON.stringify(id) ?? "nothing"}`,
    );
  if (id.length > MAX_ID_LENGTH)
    throw claimError(index, key, `longer than ${MAX_ID_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id))
    throw claimError(index, key, "contains a control character");
  return id;
}

/**
 * The smallest speedup a `by` text allows: "≥ 5x" is 5, "≥ 24 %" is 1 / (1 − 0.24). Throws a
 * plain message; the claim parser adds the claim and the key.
 */
export function parseBy(raw: unknown): { readonly text: string; readonly bound: number } {
  if (typeof raw !== "string")
    throw new Error(
      `expected an at-least bound such as "≥ 5x" or "≥ 24 %", got ${JSON.stringify(raw) ?? "nothing"}`,
    );
  const text = raw.trim();
  const match = BY.exec(text);
  if (match === null) {
    const hint = /^(?:<|<=|≤|>(?!=))/u.test(text)
      ? ': a claim says how much faster at least, so it takes "≥" or ">="'
      : /^\d/u.test(text)
        ? `: start with "≥" or ">=", e.g. "≥ ${text}"`
        : "";
    throw new Error(
      `expected "≥" or ">=", a number and "x" (a factor) or "%" (time saved), such as "≥ 5x" or "≥ 24 %", got ${JSON.stringify(raw)}${hint}`,
    );
  }
  const number = Number(match[1]);
  if (!Number.isFinite(number)) throw new Error(`${JSON.stringify(raw)}: the number is not finite`);
  if (match[2] === "%") {
    if (number >= 100)
      throw new Error(
        `${JSON.stringify(raw)}: a percentage is the share of the time saved, below 100 % (100 % would take no time); for a factor write e.g. "≥ 2x"`,
      );
    // 100 / (100 − P), not 1 / (1 − P/100): "≥ 98 %" is exactly 50, not 49.99999999999996.
    return { text, bound: 100 / (100 - number) };
  }
  if (number < 1)
    throw new Error(
      `${JSON.stringify(raw)}: a factor below 1 would allow "faster" to be slower; the claim's benchmarks may be swapped`,
    );
  return { text, bound: number };
}

/** Parses one claim (one item of the `claims` list). */
export function parseClaim(raw: unknown, index: number): Claim {
  if (!isRecord(raw))
    throw claimError(index, undefined, "expected a mapping with `faster:`, `than:` and `by:`");
  for (const key of Object.keys(raw))
    if (!(KEYS as readonly string[]).includes(key))
      throw claimError(index, key, `unknown key (expected ${KEYS.join(", ")})`);
  for (const key of KEYS) if (raw[key] === undefined) throw claimError(index, key, "missing");
  const faster = benchmarkId(raw, index, "faster");
  const than = benchmarkId(raw, index, "than");
  if (faster === than)
    throw claimError(index, "than", `the same benchmark as faster (${JSON.stringify(faster)})`);
  try {
    const by = parseBy(raw["by"]);
    return { index, faster, than, by: by.text, bound: by.bound };
  } catch (error) {
    throw claimError(index, "by", (error as Error).message);
  }
}

/** Parses the `claims:` list (absent or null means no claims). */
export function parseClaims(raw: unknown): Claim[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw))
    throw new InputError("claims: expected a list of claims (`- faster: ...`)", {
      jsonPath: "/claims",
    });
  return raw.map((item, index) => parseClaim(item, index));
}
