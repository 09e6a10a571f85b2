// Budgets on counts (docs/budgets-and-golden.md, "Budgets on counts"): a rule key that is not a
// time statistic names a count metric exactly as report.json does (`instructions`,
// `estimated_cycles`, `total_bytes`, …) and holds an upper bound on the head's count:
//
//   - benchmark: "sum::*"
//     instructions: "< 2.5M"           # k/K, M, G, T multiply by 1000ⁿ
//     total_bytes: "<= 1 MiB"          # Ki, Mi, Gi, Ti only with bytes
//     l1_hits: "< 800k hits"           # an optional unit, which must be the metric's own
//   - benchmark: "api errors"
//     error_rate: "< 1%"               # a share in %, for a metric whose entries are in %
//
// The set of metrics is open (any ingest, or a summary.json written by hand, may bring its own),
// so a misspelt metric cannot be refused here: it fails at evaluation, as a key that matched no
// benchmark with that metric. What can be refused here is: a key close to a time statistic or
// max_regression (`medain`, `p90`), and a value that is not a count (`"< 25ms"`). A percentage
// (`"< 1%"`) is read as a number in the unit `%`; like any unit it must be the metric's own, so
// on instructions or bytes it fails when checked (a relative change is max_regression's job).
// A limit checks the head's value (`Entry.head.value`); for an exact count every round read it.
import type { BudgetResult, Entry } from "../schemas/report.gen.ts";
import { BINARY_PREFIXES, normalizeUnit } from "../ingest/units.ts";
import { closeBy, closeText, type CloseBand } from "./close-band.ts";

/**
 * A count metric's key. As the summary's `metric` pattern, but at most 32 characters: the key
 * becomes the `statistic` of each budget result (report.v1 `budgetResult`, 32 characters).
 */
export const COUNT_KEY = /^[a-z][a-z0-9_]{0,31}$/;

type CountOperator = "<" | "<=";

export interface CountLimit {
  /** The report's `metric` this limit checks. */
  readonly metric: string;
  readonly op: CountOperator;
  /** The limit as a number of the metric's units (bytes for a "1 MiB" limit). */
  readonly value: number;
  /** The unit the limit names, as normalizeUnit spells it ("instructions", "B", "hits"); absent: none named. */
  readonly unit?: string;
  /** The text as written, e.g. "< 2.5M". */
  readonly text: string;
}

/** The decimal multipliers, as powers of ten (so "1.1M" is exactly 1 100 000). */
const SI_POWERS: ReadonlyMap<string, number> = new Map([
  ["k", 3],
  ["K", 3],
  ["M", 6],
  ["G", 9],
  ["T", 12],
]);

/** Above this a double no longer holds every integer, so a count would not be exact. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

const LIMIT = /^(<=|>=|<|>)\s*([-\u2212]?)\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(.*)$/;
const WORD = /^[A-Za-z][A-Za-z0-9_:-]{0,31}$/;
const EXAMPLES = `"< 2.5M", "<= 2500000 instructions" or "< 1 MiB"`;

/** `number × 10^power` from its decimal text, rounded once (Number("1.1e6"), not 1.1 × 1e6). */
function shiftDecimal(number: string, power: number): number {
  const [mantissa, exponent] = number.toLowerCase().split("e");
  return Number(`${mantissa}e${Number(exponent ?? "0") + power}`);
}

interface Scale {
  /** Multiply by 10^decimal, then by binary. */
  readonly decimal: number;
  readonly binary: number;
  readonly unit?: string;
}

/** What follows the number: nothing, a multiplier, a unit word, or a multiplier and a unit word. */
function scaleOf(rest: string, raw: string, metric: string): Scale {
  const quoted = JSON.stringify(raw);
  const whole = normalizeUnit(rest);
  if (rest !== "" && whole.kind === "time")
    throw new Error(
      `${quoted}: ${JSON.stringify(rest)} is a time, and ${metric} is a count; a time limit goes under median, mean, p50, p95 or p99`,
    );
  if (rest !== "" && whole.kind === "rate")
    throw new Error(
      `${quoted}: ${JSON.stringify(rest)} is a rate, and ${metric} is a count; a rate limit goes under median`,
    );
  if (rest === "") return { decimal: 0, binary: 1 };
  // A share in percent (an error rate): the number as written, in the unit "%".
  if (rest === "%") return { decimal: 0, binary: 1, unit: "%" };
  if (/^(Ki|Mi|Gi|Ti|k|K|M|G|T)\s*%$/.test(rest))
    throw new Error(`${quoted}: a percentage takes no multiplier`);
  const prefixed = /^(Ki|Mi|Gi|Ti|k|K|M|G|T)(?:\s+(\S+))?$/.exec(rest);
  const prefix = prefixed?.[1];
  const word = prefixed === null ? rest : prefixed[2];
  const decimal = prefix === undefined ? 0 : (SI_POWERS.get(prefix) ?? 0);
  const binary = prefix === undefined ? 1 : (BINARY_PREFIXES.get(prefix) ?? 1);
  if (word === undefined) {
    if (binary !== 1)
      throw new Error(
        `${quoted}: binary multipliers (Ki, Mi, Gi, Ti) are for bytes: write "${raw.trim()}B"`,
      );
    return { decimal, binary };
  }
  if (/^[,_'\s]\d/.test(rest))
    throw new Error(
      `${quoted}: write the number without separators, such as "< 2500000" or "< 2.5M"`,
    );
  if (!WORD.test(word))
    throw new Error(
      `${quoted}: expected a multiplier or a unit after the number, such as ${EXAMPLES}`,
    );
  const unit = normalizeUnit(word);
  if (unit.kind === "time" || unit.kind === "rate")
    throw new Error(`${quoted}: ${JSON.stringify(word)} is not a count unit`);
  if (unit.kind === "unknown" && word.length === 1)
    throw new Error(
      `${quoted}: unknown suffix ${JSON.stringify(word)}: k (or K), M, G and T multiply by a thousand, a million, …; Ki, Mi, Gi and Ti by 1024ⁿ, with bytes ("1 MiB")`,
    );
  if (unit.factor !== 1 && prefix !== undefined)
    throw new Error(`${quoted}: two multipliers (${prefix} and ${word})`);
  // normalizeUnit reads "MB", "KiB", "kbit": its factor is the word's own multiplier.
  const power = Math.log10(unit.factor);
  const own =
    unit.factor === 1
      ? { decimal, binary }
      : Number.isInteger(power)
        ? { decimal: power, binary: 1 }
        : { decimal: 0, binary: unit.factor };
  if (own.binary !== 1 && unit.unit !== "B")
    throw new Error(
      `${quoted}: binary multipliers (Ki, Mi, Gi, Ti) are for bytes, not ${unit.unit}`,
    );
  return { ...own, unit: unit.unit };
}

/**
 * Parses one count limit such as "< 2.5M", "<= 2500000 instructions" or "< 1 MiB" for `metric`.
 * Throws a plain message; the rule parser adds the rule and the key.
 */
export function parseCountLimit(metric: string, raw: unknown): CountLimit {
  if (typeof raw !== "string")
    throw new Error(`expected a string such as "< 2.5M", got ${JSON.stringify(raw) ?? "nothing"}`);
  const text = raw.trim();
  const match = LIMIT.exec(text);
  if (match === null)
    throw new Error(
      `expected "<" or "<=", a number and an optional multiplier or unit, such as ${EXAMPLES}, got ${JSON.stringify(raw)}`,
    );
  const op = match[1] ?? "";
  const number = match[3] ?? "";
  if (op === ">" || op === ">=")
    throw new Error(
      `${JSON.stringify(raw)}: a count is smaller-is-better, so its limit is an upper bound: use "<" or "<="`,
    );
  if (match[2] !== "") throw new Error(`${JSON.stringify(raw)}: a count is never negative`);
  const scale = scaleOf((match[4] ?? "").trim(), raw, metric);
  const value = shiftDecimal(number, scale.decimal) * scale.binary;
  if (!Number.isFinite(value)) throw new Error(`${JSON.stringify(raw)}: the number is not finite`);
  if (value > MAX_COUNT)
    throw new Error(
      `${JSON.stringify(raw)}: above ${MAX_COUNT}, where a count can no longer be held exactly`,
    );
  const limit = { metric, op: op as CountOperator, value, text };
  return scale.unit === undefined ? limit : { ...limit, unit: scale.unit };
}

/** "instructions" and "instr", "B" and "bytes", "error" and "errors" agree; "%" only with "%". */
export function unitsAgree(limitUnit: string, entryUnit: string): boolean {
  if (limitUnit === "%" || entryUnit.trim() === "%") return limitUnit === entryUnit.trim();
  const a = normalizeUnit(limitUnit).unit;
  const b = normalizeUnit(entryUnit).unit;
  return [a, `${a}s`, `${a}es`].includes(b) || [`${b}s`, `${b}es`].includes(a);
}

/** `2431998` → "2,431,998"; a fraction keeps up to three decimals: "1,153,433.6". */
export function formatCount(value: number): string {
  const abs = Math.abs(value);
  if (!Number.isFinite(value) || abs >= 1e21) return String(value);
  const group = (n: number): string => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = value < 0 ? "-" : "";
  if (Number.isInteger(abs)) return `${sign}${group(abs)}`;
  const thousandths = Math.round(abs * 1000);
  const whole = Math.floor(thousandths / 1000);
  const rest = thousandths - whole * 1000;
  const fraction = rest === 0 ? "" : `.${String(rest).padStart(3, "0").replace(/0+$/, "")}`;
  return `${sign}${group(whole)}${fraction}`;
}

/** "the same in all 5 head rounds": how the head's value of a count came about. */
function countOrigin(head: NonNullable<Entry["head"]>): string {
  const rounds = head.per_round;
  if (rounds.length <= 1) return "one head round";
  return rounds.every((x) => x === rounds[0])
    ? `the same in all ${rounds.length} head rounds`
    : `median over ${rounds.length} head rounds, which differ`;
}

/**
 * Checks one count limit on one entry of its metric: the head's value, which for an exact count
 * every head round read. `where` names the rule in a message, e.g. `budget rule 2 ("sum::*")`;
 * `band` is the rule's close band (./close-band.ts), if any.
 */
export function checkCount(
  limit: CountLimit,
  entry: Entry,
  where: string,
  band?: CloseBand,
): BudgetResult {
  const base = {
    benchmark: entry.id,
    rule: `${limit.metric} ${limit.text}`,
    statistic: limit.metric,
    limit: limit.value,
    unit: entry.unit,
  };
  const cannot = (why: string): BudgetResult => ({
    ...base,
    actual: null,
    ok: false,
    message: `${where}: cannot check: ${why}`,
  });
  if (entry.head === null) return cannot("no head measurement (the benchmark is missing on head)");
  if (limit.unit === "%" && !unitsAgree(limit.unit, entry.unit))
    return cannot(
      `${limit.metric} is counted in ${entry.unit}, and a limit in % is for a metric measured in % (such as error_rate); a relative change is max-regression's`,
    );
  if (limit.unit !== undefined && !unitsAgree(limit.unit, entry.unit))
    return cannot(`${limit.metric} is counted in ${entry.unit}, the limit in ${limit.unit}`);
  const actual = entry.head.value;
  const ok = limit.op === "<" ? actual < limit.value : actual <= limit.value;
  const limitText = `${limit.op} ${formatCount(limit.value)} ${entry.unit}`;
  const how = countOrigin(entry.head);
  const close = ok ? undefined : closeBy(actual, limit.op, limit.value, band);
  if (close !== undefined && band !== undefined)
    return {
      ...base,
      actual,
      ok: true,
      close: true,
      message: `${limit.metric} ${formatCount(actual)} is close to the budget ${limitText}: ${closeText(close, band)} (${how})`,
    };
  return {
    ...base,
    actual,
    ok,
    message: ok
      ? `${limit.metric} ${formatCount(actual)} ${limitText} (${how})`
      : `${limit.metric} ${formatCount(actual)} breaks the budget ${limitText}${band === undefined ? "" : `, past its close band of ${band.text}`} (${how})`,
  };
}

/** Whether the optimal string alignment distance (a swap of neighbours is one edit) is ≤ `limit`. */
function withinEdits(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return ((rows[a.length] as number[])[b.length] as number) <= limit;
}

/**
 * The fixed keys that `key` is probably a misspelling of (`medain` → median, `p90` → p50, p95
 * or p99): one edit from a short key, two from a longer one. No metric an ingest writes comes
 * this close (count-limit.test.ts checks the gungraun and Cachegrind ones).
 */
export function misspeltKey(key: string, fixedKeys: readonly string[]): string[] {
  return fixedKeys.filter(
    (fixed) => key !== fixed && withinEdits(key, fixed, fixed.length <= 4 ? 1 : 2),
  );
}
