// Reporting a verdict to GitHub in the order that keeps it safe (docs/threat-model.md, V3): the comment,
// job summary and outputs first, the check run last, and the step failed only after all of
// them. Shared by mode: gate (one job) and mode: report (the job that never runs PR code). A
// comment that cannot be posted (a read-only fork token, an API outage) is a warning: the
// verdict still reaches the check and the summary.
import { CHECK_NAME } from "../github/check-name.ts";
import {
  acceptanceRecords,
  appOfBot,
  findAcceptance,
  MAX_ACCEPTED_IDS,
  resultMarker,
  type Acceptance,
} from "../github/acceptance.ts";
import type { CheckConclusion, CheckRun, GitHubPort, IssueComment } from "../ports/github.ts";
import { GATE_MARKER, upsertSticky } from "../github/sticky-comment.ts";
import { errorBlock, errorComment } from "../render/error-comment.ts";
import { renderComment, type CommentCommands, type CommentOptions } from "../render/comment.ts";
import { tamePercents } from "../render/format.ts";
import { capLength } from "../render/sanitize-text.ts";
import { checkConclusion, failureCauses, type FailureCauses } from "../core/gate-verdict.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import type { StepIO } from "../ports/step-io.ts";
import { gateAnnotations } from "../render/annotations.ts";

export interface GateTarget {
  readonly baseSha: string;
  readonly headSha: string;
  readonly prNumber?: number;
}

/** The action's facts publishing needs: whose comments are ours, and a /rebench's check and command. */
interface PublishSettings {
  readonly botUserId: number;
  /** The check run the authorizer opened for a /rebench. */
  readonly checkId?: number;
  /** The /rebench comment to react to. */
  readonly commandCommentId?: number;
}

export interface PublishContext {
  readonly settings: PublishSettings;
  readonly github: GitHubPort;
  readonly io: StepIO;
  readonly target: GateTarget;
}

export interface GateOutcome {
  readonly verdict: BenchReport["verdict"];
  readonly failed: boolean;
}

function warnOf(io: StepIO): (what: string, error: unknown) => void {
  return (what, error) => io.warning(`${what}: ${(error as Error).message}`);
}

/** Opens the check as "in progress" (gate mode, before the long run); undefined if it cannot. */
export async function openCheck(ctx: PublishContext): Promise<number | undefined> {
  const { target } = ctx;
  // A /rebench run: the authorizer already opened it on the pinned SHA.
  if (ctx.settings.checkId !== undefined) return ctx.settings.checkId;
  try {
    return await ctx.github.createCheck(target.headSha, CHECK_NAME, {
      title: "Benchmarking",
      summary: `Comparing ${target.headSha.slice(0, 12)} with ${target.baseSha.slice(0, 12)} in interleaved rounds.`,
    });
  } catch (error) {
    warnOf(ctx.io)("could not create the check run", error);
    return undefined;
  }
}

async function finishCheck(
  ctx: PublishContext,
  checkId: number | undefined,
  conclusion: CheckConclusion,
  output: { title: string; summary: string; text?: string },
): Promise<void> {
  try {
    const id =
      checkId ??
      ctx.settings.checkId ??
      (await ctx.github.createCheck(ctx.target.headSha, CHECK_NAME, {
        title: output.title,
        summary: "Reporting.",
      }));
    await ctx.github.completeCheck(id, conclusion, output);
  } catch (error) {
    warnOf(ctx.io)("could not complete the check run", error);
  }
}

async function react(ctx: PublishContext, failed: boolean): Promise<void> {
  if (ctx.settings.commandCommentId === undefined) return;
  try {
    await ctx.github.addReaction(ctx.settings.commandCommentId, failed ? "-1" : "+1");
  } catch (error) {
    warnOf(ctx.io)("could not react to the command", error);
  }
}

async function postComment(ctx: PublishContext, markdown: string): Promise<void> {
  if (ctx.target.prNumber === undefined) return;
  try {
    const sticky = await upsertSticky(
      ctx.github,
      ctx.target.prNumber,
      markdown,
      ctx.settings.botUserId,
    );
    ctx.io.info(`PR comment ${sticky.action} (${sticky.commentId})`);
  } catch (error) {
    warnOf(ctx.io)(
      "could not post the PR comment (the verdict is still in the check and the job summary)",
      error,
    );
  }
}

/**
 * No comparison could be made: the check must not stay "in progress" (nor be missing, nor
 * pass), the sticky comment must not keep claiming an older verdict, and a command must not go
 * unanswered. The caller then fails the step. `comment: false` leaves the sticky comment alone:
 * a superseded (cancelled) run must not overwrite what the newer run says.
 */
export async function publishError(
  ctx: PublishContext,
  checkId: number | undefined,
  message: string,
  options: { readonly comment: boolean } = { comment: true },
): Promise<void> {
  if (options.comment) await postComment(ctx, errorComment(GATE_MARKER, ctx.target, message));
  await finishCheck(ctx, checkId, checkConclusion("error", false), {
    title: "error",
    summary: `benchgate could not compare the commits:\n\n${errorBlock(message)}`,
  });
  await react(ctx, true);
}

/**
 * The acceptance record that covers a failed report: one the bot wrote for this SHA naming every
 * confirmed regression, backed by the passing check the bot completed for it, when regressions
 * are all that fail it (docs/threat-model.md, C7). A broken budget, a changed golden output, a
 * suite-wide shift or missing benchmarks are never accepted; records that cannot be read or
 * checked accept nothing.
 */
async function coveringAcceptance(
  ctx: PublishContext,
  report: BenchReport,
  causes: FailureCauses,
): Promise<Acceptance | undefined> {
  const { target, settings } = ctx;
  if (target.prNumber === undefined) return undefined;
  let comments: IssueComment[];
  try {
    comments = await ctx.github.listComments(target.prNumber);
  } catch (error) {
    warnOf(ctx.io)("could not read acceptance records", error);
    return undefined;
  }
  if (report.verdict !== "fail" || causes.other.length > 0) return undefined;
  const { headSha } = target;
  const records = acceptanceRecords(comments, settings.botUserId, headSha, causes.regressions);
  // The checks are read only when there is a record to check, so most runs make no extra call.
  if (records.length === 0) return undefined;
  let login: string;
  let checks: CheckRun[];
  try {
    login = await ctx.github.userLogin(settings.botUserId);
    checks = await ctx.github.listChecks(headSha, CHECK_NAME);
  } catch (error) {
    warnOf(ctx.io)("could not read the checks that back an acceptance record", error);
    return undefined;
  }
  const app = appOfBot(login);
  const botId = settings.botUserId;
  const accepted =
    app === undefined
      ? undefined
      : findAcceptance({ comments, checks, botId, app }, headSha, causes.regressions);
  if (accepted === undefined)
    ctx.io.warning(
      `ignored ${records.length} acceptance record(s) of ${headSha.slice(0, 12)} (comment ${records.map((r) => r.commentId).join(", ")}): no passing benchgate check of the bot's app backs them with the same ids${app === undefined ? ` (${login} is not an app's bot)` : ""}`,
    );
  return accepted;
}

/** A failed report a `/benchgate accept` could pass: confirmed regressions only, few enough. */
function acceptable(report: BenchReport, { regressions, other }: FailureCauses): boolean {
  return (
    report.verdict === "fail" &&
    other.length === 0 &&
    regressions.length > 0 &&
    regressions.length <= MAX_ACCEPTED_IDS
  );
}

/** GitHub's limit on a check run's output text and summary, in characters. */
const CHECK_OUTPUT_MAX = 65_535;
/** The check's summary holds the report's reasons; far less than the limit is worth reading. */
const CHECK_SUMMARY_MAX = 60_000;

/**
 * The check run's output text: the result marker first (the authorizer reads the regressions
 * a maintainer may accept from it), then the comment (already within MAX_COMMENT_CHARS), cut to
 * GitHub's limit without splitting a surrogate pair.
 */
function checkText(causes: FailureCauses, headSha: string, markdown: string): string {
  const marker = resultMarker(headSha, causes.regressions, causes.other);
  return capLength(`${marker}\n${markdown}`, CHECK_OUTPUT_MAX);
}

/**
 * The commands the comment shows right under its "why", for a pull request only: its head,
 * whether `/benchgate accept` could pass the verdict, or the acceptance that covers it.
 */
function prCommands(
  target: GateTarget,
  report: BenchReport,
  causes: FailureCauses,
  accepted: Acceptance | undefined,
): CommentCommands | undefined {
  if (target.prNumber === undefined) return undefined;
  return {
    headSha: target.headSha,
    acceptable: acceptable(report, causes),
    ...(accepted === undefined ? {} : { accepted }),
  };
}

/**
 * Posts a computed verdict; `checkId` is the check gate mode opened, if any. The comment is
 * rendered here, from the report and the options the decision used (its marker and size cap), so
 * that a pull request's commands, and an acceptance only GitHub knows of, sit under the "why".
 */
export async function publishVerdict(
  ctx: PublishContext,
  result: {
    readonly report: BenchReport;
    readonly comment: CommentOptions;
    readonly reportFile: string;
  },
  checkId: number | undefined,
): Promise<GateOutcome> {
  const { io, target } = ctx;
  const { report } = result;
  // Why the report fails, once: the acceptance, the commands and the check's marker all read it.
  const causes = failureCauses(report);
  const accepted = await coveringAcceptance(ctx, report, causes);
  const commands = prCommands(target, report, causes, accepted);
  const markdown = renderComment(report, {
    ...result.comment,
    ...(commands === undefined ? {} : { commands }),
  });
  if (target.prNumber !== undefined) await postComment(ctx, markdown);
  await io.summary(markdown);
  io.setOutput("verdict", report.verdict);
  io.setOutput("report-path", result.reportFile);
  io.setOutput("markdown", markdown);
  for (const a of gateAnnotations(report)) io.annotate(a.title, a.message);

  const conclusion = checkConclusion(report.verdict, accepted !== undefined);
  await finishCheck(ctx, checkId, conclusion, {
    title: `${report.verdict}${accepted !== undefined ? " (accepted)" : ""}`,
    // As the comment shows them: a smell's evidence may still carry a percentage of 1,000 % or more.
    summary: capLength(tamePercents(report.reasons.join("\n")), CHECK_SUMMARY_MAX) || "No change.",
    text: checkText(causes, target.headSha, markdown),
  });
  await react(ctx, conclusion === "failure");
  return { verdict: report.verdict, failed: conclusion === "failure" };
}
