// Deciding, pure: from the summaries and golden results to the one report every caller writes
// (the decision rule, then budgets, claims, golden outputs and smells folded into the verdict,
// head-to-head ratios beside them, then our own schema as a last check) and the comment that
// shows it; publish.ts renders it once more for a pull request, with the commands that apply.
// `compare`, `run` and the action's gate and report modes all decide here, so they cannot
// disagree.
import { compare, type NoiseSource } from "../core/compare-summaries.ts";
import { withBudgets, withClaims, withGolden, withHeadToHead } from "../core/gate-verdict.ts";
import type { CompareSettings } from "../core/settings.ts";
import type { CountThresholds } from "../core/counts.ts";
import { pairSummaries, type SourcedSummary } from "../core/pairing.ts";
import { headToHeadResults, type HeadToHead } from "../core/ratios.ts";
import { evaluateBudgets } from "../budgets/evaluate-budgets.ts";
import type { BudgetRule } from "../budgets/parse-budget.ts";
import { checkClaims } from "../budgets/check-claims.ts";
import type { Claim } from "../budgets/parse-claim.ts";
import { ToolError, type InputError } from "../errors.ts";
import { detectSmells, withSmells, type SmellConfig } from "../smells/detect-smells.ts";
import type { BenchReport, GoldenResult } from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate-document.ts";
import { GENERATOR } from "../version.ts";
import { renderComment, type CommentOptions } from "../render/comment.ts";
import type { Judgement } from "./plan.ts";

interface GateInput {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly settings: CompareSettings;
  readonly budgets: readonly BudgetRule[];
  /** Speedup claims, checked on head. */
  readonly claims?: readonly Claim[];
  /** Variants of a benchmark to compare with their reference, on both sides. */
  readonly headToHead?: readonly HeadToHead[];
  /** Only a filtered subset was measured: budgets and claims of benchmarks not run are left unchecked. */
  readonly filtered?: boolean;
  readonly golden?: readonly GoldenResult[];
  /** benchgate.yml's smells: block. */
  readonly smells?: SmellConfig | undefined;
  /** Suites with their own thresholds for deterministic counts. */
  readonly countThresholds?: ReadonlyMap<string, CountThresholds>;
  /** One run per side: where its noise comes from (the history, or base-head-base). */
  readonly noise?: NoiseSource;
  /** The run was stopped before it finished: the report is marked partial and says so first. */
  readonly partial?: PartialRun | undefined;
  readonly now: Date;
}

/** A report's partial marker (report.v1 `partial`). */
export type PartialRun = NonNullable<BenchReport["partial"]>;

/**
 * The one line that says a report is partial, first of its reasons (the comment's "Why") and
 * in the terminal: "partial: stopped by SIGTERM after 2 of 5 rounds; …".
 */
export function partialLine(partial: PartialRun, sequential = false): string {
  const by = partial.signal ?? "a signal";
  const planned = partial.rounds_planned;
  const of = planned === undefined ? "" : ` of ${sequential ? "up to " : ""}${planned}`;
  const rounds = `${partial.rounds_completed}${of} round${partial.rounds_completed === 1 && of === "" ? "" : "s"}`;
  return `partial: stopped by ${by} after ${rounds}; this verdict is of those rounds only`;
}

export function gateReport(input: GateInput): BenchReport {
  const compared = compare(input.base, input.head, {
    settings: input.settings,
    generator: GENERATOR,
    now: input.now.toISOString(),
    ...(input.countThresholds === undefined ? {} : { countThresholds: input.countThresholds }),
    ...(input.noise === undefined ? {} : { noise: input.noise }),
  });
  const budgets = evaluateBudgets(input.budgets, {
    benchmarks: compared.benchmarks,
    headSummaries: input.head.map((h) => h.summary),
    filtered: input.filtered === true,
  });
  const claims = input.claims ?? [];
  const pairs = input.headToHead ?? [];
  // Ratios pair two benchmarks within one side's rounds: the same series compare() paired.
  const series =
    claims.length === 0 && pairs.length === 0
      ? []
      : pairSummaries(input.base, input.head, {
          unpaired: input.settings.unpaired || input.noise?.kind === "aba",
        }).series;
  const claimed = withClaims(
    withBudgets(compared, budgets),
    checkClaims(claims, {
      series,
      confidence: input.settings.confidence,
      filtered: input.filtered === true,
    }),
  );
  const ratios = withHeadToHead(
    claimed,
    headToHeadResults(pairs, series, input.settings.confidence),
  );
  const checked = withGolden(ratios, input.golden ?? []);
  const smells = detectSmells(
    { base: input.base, head: input.head, report: checked },
    input.smells,
  );
  const smelled = withSmells(checked, smells);
  const { partial } = input;
  const sequential = smelled.settings.design?.kind === "sequential";
  const report =
    partial === undefined
      ? smelled
      : { ...smelled, partial, reasons: [partialLine(partial, sequential), ...smelled.reasons] };
  // The report we write must satisfy our own schema; a failure here is our bug (exit 3, not
  // the user's input), caught before any file is written.
  try {
    return validateReport(report, "generated report");
  } catch (error) {
    throw new ToolError(`internal error: ${(error as InputError).describe()}`, { cause: error });
  }
}

/** What was measured, from a run or from summary files. */
interface Measured {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly golden?: readonly GoldenResult[];
  /** critcmp's text table of the same runs, folded into the comment. */
  readonly critcmpTable?: string | undefined;
  /** One run per side: where its noise comes from (the history, or base-head-base). */
  readonly noise?: NoiseSource | undefined;
  /** The run was stopped before it finished: decide on what it completed, marked partial. */
  readonly partial?: PartialRun | undefined;
}

export interface Decision {
  readonly report: BenchReport;
  /** The comment for this report as the files and the terminal show it: no PR commands. */
  readonly markdown: string;
  /**
   * What `markdown` was rendered with (marker, size cap, critcmp's table): publishing renders
   * the PR comment from the report with these and the pull request's commands.
   */
  readonly comment: CommentOptions;
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
    claims: judgement.claims,
    ...(judgement.headToHead === undefined ? {} : { headToHead: judgement.headToHead }),
    filtered: judgement.filtered,
    ...(measured.golden === undefined ? {} : { golden: measured.golden }),
    smells: judgement.smells,
    countThresholds: judgement.countThresholds,
    ...(measured.noise === undefined ? {} : { noise: measured.noise }),
    ...(measured.partial === undefined ? {} : { partial: measured.partial }),
    now,
  });
  const { critcmpTable } = measured;
  const options = { ...comment, ...(critcmpTable === undefined ? {} : { critcmpTable }) };
  return { report, markdown: renderComment(report, options), comment: options };
}
