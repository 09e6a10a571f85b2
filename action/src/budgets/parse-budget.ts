// Budget rules as users write them in benchgate.yml under `budgets:` (docs/budgets-and-golden.md), parsed
// strictly: every error names the rule (its position and benchmark glob) and the key.
//
//   budgets:
//     - benchmark: "archive_write/*"    # glob over the full id: `*` any run (also across `/`),
//       p95: "< 25ms"                   #   `?` one character; nothing else is special
//       p99: "< 30ms"
//     - benchmark: "format_resolution/explicit"
//       median: "< 100ns"
//       max-regression: "5%"           # fails only when the CI's lower bound is above 5 %
//     - benchmark: "throughput/parse"
//       median: "> 200 MiB/s"          # rates are bigger-is-better: `>` / `>=`
//     - benchmark: "sum::*"
//       instructions: "< 2.5M"         # any other key names a count metric (./count-limit.ts)
//     - benchmark: "api/*"
//       p99: "< 30ms"
//       warn: "20%"                     # past a limit by less than 20 %: close (⚠️), not broken
//
// Limits are a comparison, a non-negative number and a unit. Times (`ps`, `ns`, `us`/`µs`,
// `ms`, `s`, …) take `<` or `<=`; rates (`ops/s`, `MiB/s`, `elements/s`, …) take `>` or `>=`.
// A bare number is rejected: "< 25" is ambiguous between ns and ms. A count has no such
// ambiguity: "< 2.5M" is 2 500 000 of whatever its metric counts.
import { InputError } from "../errors.ts";
import { normalizeUnit } from "../ingest/units.ts";
import { COUNT_KEY, type CountLimit, misspeltKey, parseCountLimit } from "./count-limit.ts";

export const BUDGET_STATISTICS = ["median", "mean", "p50", "p95", "p99"] as const;
export type BudgetStatistic = (typeof BUDGET_STATISTICS)[number];

type LimitOperator = "<" | "<=" | ">" | ">=";

export interface BudgetLimit {
  readonly statistic: BudgetStatistic;
  readonly op: LimitOperator;
  /** The limit in `unit` (ns for times, "<thing>/s" for rates). */
  readonly value: number;
  /** Canonical unit, as benchgate normalizes benchmark units: "ns" or e.g. "B/s", "ops/s". */
  readonly unit: string;
  readonly kind: "time" | "rate";
  /** The text as written, e.g. "< 25ms". */
  readonly text: string;
}

export interface BudgetRule {
  /** Position in the `budgets` list (0-based). */
  readonly index: number;
  /** The id glob as written. */
  readonly benchmark: string;
  /** Limits on times and rates: they check the entries that have no count `metric`. */
  readonly limits: readonly BudgetLimit[];
  /** Limits on counts, in the order written: each checks the entries of its `metric`. */
  readonly counts: readonly CountLimit[];
  /** Allowed confirmed regression as a fraction (0.05 = 5 %). */
  readonly maxRegression?: number;
  /** The max-regression text as written. */
  readonly maxRegressionText?: string;
  /**
   * The close band of the time, rate and count limits as a fraction (0.2 = 20 %): a head value
   * past its limit by less than this share of the limit is close, reported but not broken.
   */
  readonly warn?: number;
  /** The warn text as written. */
  readonly warnText?: string;
  /**
   * Set for a rule that is not in `budgets:` but comes from a suite's own limit (a load suite's
   * max-error-rate, gate/suite-budgets.ts): what messages call it instead of "budget rule N".
   */
  readonly origin?: string;
}

/**
 * max-regression's first spelling, from before the config's keys were all kebab-case: still read
 * (config/deprecated-keys.ts warns), never together with the new one.
 */
const OLD_MAX_REGRESSION_KEY = "max_regression";
const MAX_REGRESSION_KEY = "max-regression";
const FIXED_KEYS: readonly string[] = [
  "benchmark",
  ...BUDGET_STATISTICS,
  MAX_REGRESSION_KEY,
  OLD_MAX_REGRESSION_KEY,
  "warn",
];
const KEYS: ReadonlySet<string> = new Set(FIXED_KEYS);
/** What a misspelt key is told to write: never the old spelling. */
const SUGGESTED_KEYS = FIXED_KEYS.filter((key) => key !== OLD_MAX_REGRESSION_KEY);
const EXPECTED_KEYS = `benchmark, ${BUDGET_STATISTICS.join(", ")}, max-regression, warn or a count metric as report.json names it (instructions, total_bytes, …)`;
const MAX_GLOB_LENGTH = 512;

/** "a", "a or b", "a, b or c". */
function orList(words: readonly string[]): string {
  return words.length <= 1
    ? (words[0] ?? "")
    : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1] ?? ""}`;
}

/** How errors name a rule: `budget rule 2 ("archive/*")`. */
function describeRule(index: number, benchmark?: string): string {
  const glob = benchmark === undefined ? "" : ` (${JSON.stringify(benchmark)})`;
  return `budget rule ${index + 1}${glob}`;
}

/** How messages name a parsed rule: by its place in `budgets:`, or by the suite key that set it. */
export function describeBudget(rule: BudgetRule): string {
  return rule.origin === undefined
    ? describeRule(rule.index, rule.benchmark)
    : `${rule.origin} (${JSON.stringify(rule.benchmark)})`;
}

function ruleError(
  index: number,
  benchmark: string | undefined,
  key: string | undefined,
  problem: string,
): InputError {
  const where = key === undefined ? "" : `: ${key}`;
  return new InputError(`${describeRule(index, benchmark)}${where}: ${problem}`, {
    jsonPath: `/budgets/${index}${key === undefined ? "" : `/${key}`}`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const LIMIT = /^(<=|>=|<|>)\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(\S.*)?$/;

/** Parses one limit such as "< 25ms", "<= 1.2µs" or "> 200 MiB/s". Throws a plain message. */
export function parseLimit(statistic: BudgetStatistic, raw: unknown): BudgetLimit {
  if (typeof raw !== "string")
    throw new Error(`expected a string such as "< 25ms", got ${JSON.stringify(raw) ?? "nothing"}`);
  const text = raw.trim();
  const match = LIMIT.exec(text);
  if (match === null)
    throw new Error(
      `expected a comparison, a number and a unit such as "< 25ms" or "> 100 ops/s", got ${JSON.stringify(raw)}`,
    );
  const op = match[1] as LimitOperator;
  const number = Number(match[2]);
  const unitText = (match[3] ?? "").trim();
  if (unitText === "")
    throw new Error(`${JSON.stringify(raw)} has no unit: write e.g. "${op} ${match[2]}ms"`);
  if (!Number.isFinite(number)) throw new Error(`${JSON.stringify(raw)}: the number is not finite`);
  const unit = normalizeUnit(unitText);
  if (unit.kind !== "time" && unit.kind !== "rate") {
    // "< 2.5M instructions", "< 1 MiB": a count, meant for a count metric's key.
    const last = normalizeUnit(unitText.split(" ").pop() ?? "").kind;
    const count = unit.kind === "count" || unit.kind === "size" || last === "count";
    throw new Error(
      `unit ${JSON.stringify(unitText)} is not a time (ns, us, µs, ms, s) or a rate (e.g. ops/s, MiB/s)${count ? `; a count's limit goes under its metric, e.g. instructions: "< 2.5M" or total_bytes: "< 1 MiB"` : ""}`,
    );
  }
  const upper = op === "<" || op === "<=";
  if (unit.kind === "time" && !upper)
    throw new Error(
      `${JSON.stringify(raw)}: a time limit is an upper bound, use "<" or "<=" (">" is for rates such as ops/s)`,
    );
  if (unit.kind === "rate" && upper)
    throw new Error(
      `${JSON.stringify(raw)}: a rate is bigger-is-better, use ">" or ">=" for a lower bound`,
    );
  return { statistic, op, value: number * unit.factor, unit: unit.unit, kind: unit.kind, text };
}

/** "5%", "0.5 %" or a fraction 0.05 (a bare number above 1 is rejected as a likely percentage). */
function parseMaxRegression(raw: unknown): number {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw) || raw < 0) throw new Error(`expected a non-negative fraction`);
    if (raw > 1)
      throw new Error(`${raw} would be ${raw * 100} %: write a percentage such as "${raw}%"`);
    return raw;
  }
  if (typeof raw !== "string")
    throw new Error(`expected a percentage such as "5%", got ${JSON.stringify(raw) ?? "nothing"}`);
  const match = /^(\d+(?:\.\d+)?)\s*%$/.exec(raw.trim());
  if (match === null)
    throw new Error(`expected a percentage such as "5%", got ${JSON.stringify(raw)}`);
  return Number(match[1]) / 100;
}

/** A close band: "20%", "2.5 %" or a fraction 0.2, above 0. */
function parseWarnBand(raw: unknown): number {
  const band = parseMaxRegression(raw);
  if (!(band > 0))
    throw new Error(`a close band is above 0, such as "20%"; leave warn out for none`);
  return band;
}

/** Parses one rule (one item of the `budgets` list). */
export function parseBudgetRule(raw: unknown, index: number): BudgetRule {
  if (!isRecord(raw))
    throw ruleError(index, undefined, undefined, "expected a mapping with `benchmark:` and limits");
  const glob = raw["benchmark"];
  if (typeof glob !== "string" || glob.trim() === "")
    throw ruleError(
      index,
      undefined,
      "benchmark",
      'expected a benchmark id or glob (`*`, `?`), e.g. benchmark: "archive/*"',
    );
  if (glob.length > MAX_GLOB_LENGTH)
    throw ruleError(index, undefined, "benchmark", `longer than ${MAX_GLOB_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(glob))
    throw ruleError(index, glob, "benchmark", "contains a control character");
  const counts: CountLimit[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (KEYS.has(key)) continue;
    const fixed = misspeltKey(key, SUGGESTED_KEYS);
    if (fixed.length > 0)
      throw ruleError(index, glob, key, `unknown key (did you mean ${orList(fixed)}?)`);
    if (!COUNT_KEY.test(key)) {
      const snake = key.toLowerCase().replaceAll("-", "_");
      const hint = COUNT_KEY.test(snake)
        ? `; count metrics are written as in report.json: ${snake}`
        : "";
      throw ruleError(index, glob, key, `unknown key (expected ${EXPECTED_KEYS})${hint}`);
    }
    try {
      counts.push(parseCountLimit(key, value));
    } catch (error) {
      throw ruleError(index, glob, key, (error as Error).message);
    }
  }
  const limits: BudgetLimit[] = [];
  for (const statistic of BUDGET_STATISTICS) {
    const value = raw[statistic];
    if (value === undefined) continue;
    try {
      limits.push(parseLimit(statistic, value));
    } catch (error) {
      throw ruleError(index, glob, statistic, (error as Error).message);
    }
  }
  let rule: BudgetRule = { index, benchmark: glob, limits, counts };
  if (raw[MAX_REGRESSION_KEY] !== undefined && raw[OLD_MAX_REGRESSION_KEY] !== undefined)
    throw ruleError(
      index,
      glob,
      OLD_MAX_REGRESSION_KEY,
      `${MAX_REGRESSION_KEY} and its old spelling ${OLD_MAX_REGRESSION_KEY} in one rule: keep ${MAX_REGRESSION_KEY}`,
    );
  const maxKey =
    raw[MAX_REGRESSION_KEY] !== undefined ? MAX_REGRESSION_KEY : OLD_MAX_REGRESSION_KEY;
  const max = raw[maxKey];
  if (max !== undefined) {
    try {
      rule = {
        ...rule,
        maxRegression: parseMaxRegression(max),
        maxRegressionText: typeof max === "number" ? `${max * 100}%` : (max as string).trim(),
      };
    } catch (error) {
      throw ruleError(index, glob, maxKey, (error as Error).message);
    }
  }
  const warn = raw["warn"];
  if (warn !== undefined) {
    try {
      rule = {
        ...rule,
        warn: parseWarnBand(warn),
        warnText: typeof warn === "number" ? `${warn * 100}%` : (warn as string).trim(),
      };
    } catch (error) {
      throw ruleError(index, glob, "warn", (error as Error).message);
    }
    if (limits.length === 0 && counts.length === 0)
      throw ruleError(
        index,
        glob,
        "warn",
        `a close band widens the rule's limits (${BUDGET_STATISTICS.join(", ")} or a count metric), and this rule has none; max-regression is already judged on its interval`,
      );
  }
  if (limits.length === 0 && counts.length === 0 && rule.maxRegression === undefined)
    throw ruleError(
      index,
      glob,
      undefined,
      `no limit: give at least one of ${BUDGET_STATISTICS.join(", ")}, max-regression or a count metric such as instructions`,
    );
  return rule;
}

/** Parses the `budgets:` list (absent or null means no budgets). */
export function parseBudgets(raw: unknown): BudgetRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw))
    throw new InputError("budgets: expected a list of rules (`- benchmark: ...`)", {
      jsonPath: "/budgets",
    });
  return raw.map((item, index) => parseBudgetRule(item, index));
}

/**
 * The rules of a validated `budgets:` list that use a key's old spelling, as warnings the
 * caller prints: `budget rule 3 ("parse"): max_regression is max-regression's old spelling …`.
 */
export function budgetDeprecations(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown, index) =>
    isRecord(item) && item[OLD_MAX_REGRESSION_KEY] !== undefined
      ? [
          `${describeRule(index, typeof item["benchmark"] === "string" ? item["benchmark"] : undefined)}: ${OLD_MAX_REGRESSION_KEY} is ${MAX_REGRESSION_KEY}'s old spelling, still read; write ${MAX_REGRESSION_KEY}`,
        ]
      : [],
  );
}

export { globMatch } from "../glob-match.ts";
