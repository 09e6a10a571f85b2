// The gate's verdict, decided in one place from everything the report holds: the statistics
// (confirmed regressions, a suite-wide shift, missing benchmarks, inconclusive ones with
// fail-on-inconclusive), broken budgets, false claims, changed golden outputs and smells
// configured to fail. compare() asks verdictOf(), and every step that adds a part to the report
// (budgets, claims, golden outputs, smells) goes through withPart(), which asks the same failure
// rule again, so adding a check can never forget to fail the gate. The check run's conclusion
// follows from the verdict here too. Pure: returns new reports.
import type { CheckConclusion } from "../ports/github.ts";
import type {
  BenchReport,
  BudgetResult,
  ClaimResult,
  GoldenResult,
  HeadToHeadResult,
} from "../schemas/report.gen.ts";
import { quoteId } from "./ratios.ts";

type Verdict = BenchReport["verdict"];

/**
 * What can fail the gate besides a confirmed regression of one benchmark. An acceptance
 * (docs/threat-model.md, C7) covers named regressions only: a failure of any of these kinds is
 * never accepted, so a broken budget cannot hide behind an accepted slowdown.
 */
type OtherFailure =
  "suite-shift" | "missing" | "inconclusive" | "budgets" | "claims" | "golden" | "smells";

export interface FailureCauses {
  /** The ids of the benchmarks with a confirmed regression. */
  readonly regressions: readonly string[];
  readonly other: readonly OtherFailure[];
}

/** Why the report fails the gate, one cause per kind (nothing, when it does not). */
export function failureCauses(report: Omit<BenchReport, "verdict">): FailureCauses {
  const { counts, settings } = report;
  const other: OtherFailure[] = [];
  if ((report.suites ?? []).some((s) => s.shift?.verdict === "regressed"))
    other.push("suite-shift");
  if ((settings.missing ?? "fail") === "fail" && counts.missing > 0) other.push("missing");
  if (settings.fail_on_inconclusive === true && counts.inconclusive > 0) other.push("inconclusive");
  if (report.budgets.some((b) => !b.ok)) other.push("budgets");
  if ((report.claims ?? []).some((c) => c.fails)) other.push("claims");
  if (report.golden.some((g) => !g.ok)) other.push("golden");
  if ((report.smells ?? []).some((s) => s.fails === true)) other.push("smells");
  // A secondary count (cache hits beside the instructions) never fails the gate by itself.
  const regressions = report.benchmarks
    .filter((b) => b.verdict === "regressed" && b.secondary !== true)
    .map((b) => b.id);
  return { regressions, other };
}

/** What fails the gate: any one of these. */
function failures(report: Omit<BenchReport, "verdict">): boolean {
  const causes = failureCauses(report);
  return report.counts.regressed > 0 || causes.regressions.length > 0 || causes.other.length > 0;
}

/** The verdict of a report from its contents. */
export function verdictOf(report: Omit<BenchReport, "verdict">): Verdict {
  if (failures(report)) return "fail";
  if (report.counts.inconclusive > 0) return "inconclusive";
  return "pass";
}

/**
 * The report with one more part (and its reason). A part can only fail the gate: the verdict
 * becomes "fail" when anything in the report now fails it, and otherwise stays what the
 * statistics made it (pass or inconclusive).
 */
export function withPart(
  report: BenchReport,
  part: Partial<Pick<BenchReport, "budgets" | "claims" | "head_to_head" | "golden" | "smells">>,
  reason: string | undefined,
): BenchReport {
  const next = {
    ...report,
    ...part,
    reasons: reason === undefined ? report.reasons : [...report.reasons, reason],
  };
  return { ...next, verdict: failures(next) ? "fail" : report.verdict };
}

/** Budget results in the report: a broken budget fails the gate like a confirmed regression. */
export function withBudgets(report: BenchReport, budgets: readonly BudgetResult[]): BenchReport {
  if (budgets.length === 0) return report;
  const broken = budgets.filter((b) => !b.ok).length;
  const reason =
    broken > 0
      ? `${broken} of ${budgets.length} budget check${budgets.length === 1 ? "" : "s"} broken`
      : undefined;
  return withPart(report, { budgets: [...budgets] }, reason);
}

/** A reason is at most 2048 characters (report.v1 `text`); ids may be 1024 each. */
const MAX_REASON = 2000;

/** "claim 2 (\"a\" faster than \"b\" by ≥ 5x)". */
function claimName(claims: readonly ClaimResult[], c: ClaimResult): string {
  return `claim ${claims.indexOf(c) + 1} (${quoteId(c.faster)} faster than ${quoteId(c.than)} by ${c.by})`;
}

/**
 * Claim results in the report: a false claim, or one naming a benchmark that was not measured,
 * fails the gate; an inconclusive one does not.
 */
export function withClaims(report: BenchReport, claims: readonly ClaimResult[]): BenchReport {
  if (claims.length === 0) return report;
  const failed = claims.filter((c) => c.fails);
  let reason: string | undefined;
  if (failed.length > 0) {
    const shown = failed
      .slice(0, 3)
      .map(
        (c) =>
          `${claimName(claims, c)} ${c.verdict === "false" ? "is false" : "was not checked"}: ${c.reason}`,
      );
    const more = failed.length > 3 ? `; and ${failed.length - 3} more` : "";
    const all = Array.from(`${shown.join("; ")}${more}`);
    reason = all.length > MAX_REASON ? `${all.slice(0, MAX_REASON - 1).join("")}…` : all.join("");
  }
  return withPart(report, { claims: [...claims] }, reason);
}

/** Head-to-head ratios in the report: information, never a cause of failure. */
export function withHeadToHead(
  report: BenchReport,
  pairs: readonly HeadToHeadResult[],
): BenchReport {
  if (pairs.length === 0) return report;
  return withPart(report, { head_to_head: [...pairs] }, undefined);
}

/** Golden results in the report: a changed or missing golden output fails the gate. */
export function withGolden(report: BenchReport, golden: readonly GoldenResult[]): BenchReport {
  if (golden.length === 0) return report;
  const failed = golden.filter((g) => !g.ok);
  let reason: string | undefined;
  if (failed.length > 0) {
    const names = failed.slice(0, 5).map((g) => g.name);
    const more = failed.length > 5 ? ` and ${failed.length - 5} more` : "";
    reason = `golden output${failed.length === 1 ? "" : "s"} changed: ${names.join(", ")}${more}`;
  }
  return withPart(report, { golden: [...golden] }, reason);
}

/**
 * The one place a verdict becomes a check run's conclusion.
 * A failed gate fails the check unless a maintainer accepted every cause of it (`accepted`: each
 * confirmed regression among the ids accepted for this head commit, and nothing else); an error
 * (no comparison) always fails it, so it can never pass by not running; an inconclusive result
 * is neutral (with fail-on-inconclusive the verdict is already "fail").
 */
export function checkConclusion(
  verdict: BenchReport["verdict"],
  accepted: boolean,
): CheckConclusion {
  if (verdict === "fail") return accepted ? "success" : "failure";
  if (verdict === "error") return "failure";
  if (verdict === "inconclusive") return "neutral";
  return "success";
}
