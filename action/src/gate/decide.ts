// Deciding, pure: from the summaries and golden results to the one report every caller writes
// (the decision rule, then budgets, golden outputs and smells folded into the verdict, then our
// own schema as a last check) and the PR comment that shows it. `compare`, `run` and the action's
// gate and report modes all decide here, so they cannot disagree.
import { compare } from "../core/compare.ts";
import { withBudgets, withGolden } from "../core/gate-verdict.ts";
import type { CompareSettings } from "../core/settings.ts";
import type { CountThresholds } from "../core/counts.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { evaluateBudgets } from "../budgets/evaluate-budgets.ts";
import type { BudgetRule } from "../budgets/parse-budget.ts";
import { ToolError, type InputError } from "../errors.ts";
import { detectSmells, withSmells, type SmellConfig } from "../smells/detect-smells.ts";
import type { BenchReport, GoldenResult } from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate.ts";
import { GENERATOR } from "../version.ts";
import { renderComment, type CommentOptions } from "../render/comment.ts";
import type { Judgement } from "./plan.ts";

export interface GateInput {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly settings: CompareSettings;
  readonly budgets: readonly BudgetRule[];
  /** Only a filtered subset was measured: budgets of benchmarks not run are left unchecked. */
  readonly filtered?: boolean;
  readonly golden?: readonly GoldenResult[];
  /** benchgate.yml's smells: block. */
  readonly smells?: SmellConfig | undefined;
  /** Suites with their own thresholds for deterministic counts. */
  readonly countThresholds?: ReadonlyMap<string, CountThresholds>;
  readonly now: Date;
}

export function gateReport(input: GateInput): BenchReport {
  const compared = compare(input.base, input.head, {
    settings: input.settings,
    generator: GENERATOR,
    now: input.now.toISOString(),
    ...(input.countThresholds === undefined ? {} : { countThresholds: input.countThresholds }),
  });
  const budgets = evaluateBudgets(input.budgets, {
    benchmarks: compared.benchmarks,
    headSummaries: input.head.map((h) => h.summary),
    filtered: input.filtered === true,
  });
  const checked = withGolden(withBudgets(compared, budgets), input.golden ?? []);
  const smells = detectSmells(
    { base: input.base, head: input.head, report: checked },
    input.smells,
  );
  const report = withSmells(checked, smells);
  // The report we write must satisfy our own schema; a failure here is our bug (exit 3, not
  // the user's input), caught before any file is written.
  try {
    return validateReport(report, "generated report");
  } catch (error) {
    throw new ToolError(`internal error: ${(error as InputError).describe()}`, { cause: error });
  }
}

/** What was measured, from a run or from summary files. */
export interface Measured {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly golden?: readonly GoldenResult[];
  /** critcmp's text table of the same runs, folded into the comment. */
  readonly critcmpTable?: string | undefined;
}

export interface Decision {
  readonly report: BenchReport;
  /** The PR comment (and job summary) for this report. */
  readonly markdown: string;
}

export function decide(
  judgement: Judgement,
  measured: Measured,
  now: Date,
  comment: CommentOptions = {},
): Decision {
  const report = gateReport({
    base: measured.base,
    head: measured.head,
    settings: judgement.settings,
    budgets: judgement.budgets,
    filtered: judgement.filtered,
    ...(measured.golden === undefined ? {} : { golden: measured.golden }),
    smells: judgement.smells,
    countThresholds: judgement.countThresholds,
    now,
  });
  const { critcmpTable } = measured;
  const markdown = renderComment(report, {
    ...comment,
    ...(critcmpTable === undefined ? {} : { critcmpTable }),
  });
  return { report, markdown };
}
