// The measure job's Where, carried into the report job's comment (issue 29, docs/where.md,
// docs/action.md "mode: report"). The report job never runs the pull request's code, so it
// cannot profile; the measure job did, and its report.json holds a `where` per regression that
// job confirmed. That file comes from a job that ran the change, so a Where is shown only on a
// regression this job's own decision confirms (the measure job's verdicts are never trusted),
// as the measure job wrote it and marked as its, and it never changes a verdict.
import { renderComment } from "../render/comment.ts";
import type { BenchReport, Where } from "../schemas/report.gen.ts";
import type { Decision } from "./decide.ts";
import { withWhere } from "./where-step.ts";

/** The measure job's Where per benchmark, by `whereKey(suite, id)`. */
export type MeasuredWheres = ReadonlyMap<string, Where>;

/**
 * A benchmark's key: its suite and id together (an id alone may repeat across suites), joined
 * so that no pair of strings can spell another pair's key.
 */
export function whereKey(suite: string, id: string): string {
  return JSON.stringify([suite, id]);
}

/** Each benchmark's `where`, by (suite, id); entries without one are skipped. */
export function wheresBy(
  entries: Iterable<{ readonly suite: string; readonly id: string; readonly where?: Where }>,
): MeasuredWheres {
  const wheres = new Map<string, Where>();
  for (const entry of entries)
    if (entry.where !== undefined) wheres.set(whereKey(entry.suite, entry.id), entry.where);
  return wheres;
}

/** Every `where` of a report that has passed the schema, by (suite, id). */
export function measuredWheres(report: BenchReport): MeasuredWheres {
  return wheresBy(report.benchmarks);
}

/**
 * The decision with the measure job's Where on each regression it confirms itself (the same
 * entries the measure job's own Where step picks: regressed, not a secondary count), marked
 * `from_measure_job`; every other Where is dropped. The report is checked against the schema
 * again and the comment rendered again; if that fails, the decision is kept without Where and
 * `warn` says why, because Where must never cost the verdict.
 */
export function carryMeasuredWhere(
  decision: Decision,
  wheres: MeasuredWheres,
  warn: (message: string) => void,
): Decision {
  const carried = new Map<number, Where>();
  decision.report.benchmarks.forEach((entry, at) => {
    if (entry.verdict !== "regressed" || entry.secondary === true) return;
    const where = wheres.get(whereKey(entry.suite, entry.id));
    if (where !== undefined) carried.set(at, { ...where, from_measure_job: true });
  });
  if (carried.size === 0) return decision;
  try {
    const report = withWhere(decision.report, carried);
    return { ...decision, report, markdown: renderComment(report, decision.comment) };
  } catch (error) {
    warn(
      `benchgate: the measure job's Where was left out of the report: ${error instanceof Error ? error.message : String(error)}`,
    );
    return decision;
  }
}
