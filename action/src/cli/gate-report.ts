// From summaries to the one report both `compare` and `run` write: the decision rule, then the
// budgets and golden outputs folded into the verdict, then our own schema as a last check.
import { compare } from "../core/compare.ts";
import { withBudgets, withGolden } from "../core/gate-verdict.ts";
import type { CompareSettings } from "../core/settings.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { evaluateBudgets } from "../budgets/evaluate-budgets.ts";
import { parseBudgets, type BudgetRule } from "../budgets/parse-budget.ts";
import { InputError, ToolError } from "../errors.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import { detectSmells, withSmells, type SmellConfig } from "../smells/detect-smells.ts";
import type { BenchReport, GoldenResult } from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate.ts";
import { GENERATOR } from "../version.ts";

/** The budgets of benchgate.yml; errors name the rule and key, and we add the file. */
export function budgetRules(
  config: BenchgateConfig | undefined,
  configFile: string | undefined,
): BudgetRule[] {
  try {
    return parseBudgets(config?.budgets);
  } catch (error) {
    if (error instanceof InputError && configFile !== undefined) {
      const where = error.jsonPath === undefined ? {} : { jsonPath: error.jsonPath };
      throw new InputError(error.message, { source: configFile, ...where }, { cause: error });
    }
    throw error;
  }
}

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
  readonly now: Date;
}

export function gateReport(input: GateInput): BenchReport {
  const compared = compare(input.base, input.head, {
    settings: input.settings,
    generator: GENERATOR,
    now: input.now.toISOString(),
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
