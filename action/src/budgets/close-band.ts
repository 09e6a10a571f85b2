// The close band of a budget rule (`warn: "20%"`, docs/budgets-and-golden.md): a head value past
// one of the rule's time, rate or count limits by less than that share of the limit is *close*:
// reported (⚠️ in the comment) but not broken, so a budget set at today's value warns before it
// fails. Past the band it is broken as without one; within the limit it is met. "Past" is above
// an upper bound (`<`, `<=`) and below a lower bound (`>`, `>=`, rates). Pure.
// It imports nothing else of budgets/: count-limit.ts uses it, and parse-budget.ts imports that.

/** A limit's comparison: `<`/`<=` an upper bound, `>`/`>=` a lower one. */
type Operator = "<" | "<=" | ">" | ">=";

export interface CloseBand {
  /** The band as a fraction of the limit (0.2 = 20 %). */
  readonly fraction: number;
  /** As written, e.g. "20%". */
  readonly text: string;
}

/** "8.4 %": three significant digits, as max_regression's messages write them. */
function share(x: number): string {
  return `${Number((x * 100).toPrecision(3))} %`;
}

/** The rule's band, if it has one. */
export function bandOf(rule: {
  readonly warn?: number;
  readonly warnText?: string;
}): CloseBand | undefined {
  if (rule.warn === undefined) return undefined;
  return { fraction: rule.warn, text: rule.warnText ?? share(rule.warn) };
}

/**
 * How far past `limit` a value that breaks it is, as a share of the limit: (actual − limit) /
 * limit for an upper bound, (limit − actual) / limit for a lower one. 0 for a value equal to a
 * strict limit; Infinity past a limit of 0, which no band can cover.
 */
export function overshoot(actual: number, op: Operator, limit: number): number {
  const past = op === "<" || op === "<=" ? actual - limit : limit - actual;
  if (past <= 0) return 0;
  return limit > 0 ? past / limit : Infinity;
}

/** The overshoot of a broken limit when it is within the band, else undefined (broken). */
export function closeBy(
  actual: number,
  op: Operator,
  limit: number,
  band: CloseBand | undefined,
): number | undefined {
  if (band === undefined) return undefined;
  const by = overshoot(actual, op, limit);
  return by < band.fraction ? by : undefined;
}

/** "past the limit by 8.4 %, within the close band of 20%". */
export function closeText(by: number, band: CloseBand): string {
  return `past the limit by ${share(by)}, within the close band of ${band.text}`;
}
