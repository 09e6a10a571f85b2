// Reporting a verdict to GitHub in the order that keeps it safe (security.md §3.5): the comment,
// job summary and outputs first, the check run last, and the step failed only after all of
// them. Shared by mode: gate (one job) and mode: report (the job that never runs PR code). A
// comment that cannot be posted (a read-only fork token, an API outage) is a warning: the
// verdict still reaches the check and the summary.
import { CHECK_NAME } from "../bot/authorize.ts";
import { InputError } from "../errors.ts";
import { findAcceptance, type Acceptance } from "../github/acceptance.ts";
import type { CheckConclusion, GitHubPort } from "../ports/github.ts";
import { GATE_MARKER, upsertSticky } from "../github/sticky-comment.ts";
import { codeBlock } from "../render/code-block.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import type { ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import { gateAnnotations } from "./annotations.ts";

export interface GateTarget {
  readonly baseSha: string;
  readonly headSha: string;
  readonly prNumber?: number;
}

export interface PublishContext {
  readonly config: ActionConfig;
  readonly github: GitHubPort;
  readonly io: StepIO;
  readonly target: GateTarget;
}

export interface GateOutcome {
  readonly verdict: BenchReport["verdict"];
  readonly failed: boolean;
}

function conclusionOf(
  report: BenchReport,
  accepted: Acceptance | undefined,
  failOnInconclusive: boolean,
): CheckConclusion {
  if (report.verdict === "fail") return accepted === undefined ? "failure" : "success";
  if (report.verdict === "error") return "failure";
  if (report.verdict === "inconclusive") return failOnInconclusive ? "failure" : "neutral";
  return "success";
}

function warnOf(io: StepIO): (what: string, error: unknown) => void {
  return (what, error) => io.warning(`${what}: ${(error as Error).message}`);
}

/** Opens the check as "in progress" (gate mode, before the long run); undefined if it cannot. */
export async function openCheck(ctx: PublishContext): Promise<number | undefined> {
  const { target } = ctx;
  // A /rebench run: the authorizer already opened it on the pinned SHA.
  if (ctx.config.checkId !== undefined) return ctx.config.checkId;
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
      ctx.config.checkId ??
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
  if (ctx.config.commandCommentId === undefined) return;
  try {
    await ctx.github.addReaction(ctx.config.commandCommentId, failed ? "-1" : "+1");
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
      ctx.config.botUserId,
    );
    ctx.io.info(`PR comment ${sticky.action} (${sticky.commentId})`);
  } catch (error) {
    warnOf(ctx.io)(
      "could not post the PR comment (the verdict is still in the check and the job summary)",
      error,
    );
  }
}

export function describeError(error: unknown): string {
  return error instanceof InputError
    ? error.describe()
    : error instanceof Error
      ? error.message
      : String(error);
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
  const block = codeBlock(message, { language: "text" }).markdown;
  if (options.comment)
    await postComment(
      ctx,
      `${GATE_MARKER}\n### benchgate: error\n\nNo verdict for \`${ctx.target.headSha.slice(0, 12)}\`: benchgate could not compare it with \`${ctx.target.baseSha.slice(0, 12)}\`.\n\n${block}\n`,
    );
  await finishCheck(ctx, checkId, "failure", {
    title: "error",
    summary: `benchgate could not compare the commits:\n\n${block}`,
  });
  await react(ctx, true);
}

/** Posts a computed verdict; `checkId` is the check gate mode opened, if any. */
export async function publishVerdict(
  ctx: PublishContext,
  result: { readonly report: BenchReport; readonly markdown: string; readonly reportFile: string },
  checkId: number | undefined,
): Promise<GateOutcome> {
  const { config, github, io, target } = ctx;
  const { report } = result;
  let markdown = result.markdown;
  let accepted: Acceptance | undefined;
  if (target.prNumber !== undefined) {
    try {
      accepted = findAcceptance(
        await github.listComments(target.prNumber),
        config.botUserId,
        target.headSha,
      );
    } catch (error) {
      warnOf(io)("could not read acceptance records", error);
    }
    if (accepted !== undefined && report.verdict === "fail")
      markdown = `${markdown}\n\n**Accepted:** @${accepted.login} accepted this result for \`${target.headSha.slice(0, 12)}\`: ${accepted.reason}\n`;
    await postComment(ctx, markdown);
  }
  await io.summary(markdown);
  io.setOutput("verdict", report.verdict);
  io.setOutput("report-path", result.reportFile);
  io.setOutput("markdown", markdown);
  for (const a of gateAnnotations(report)) io.annotate(a.title, a.message);

  const conclusion = conclusionOf(report, accepted, config.failOnInconclusive);
  await finishCheck(ctx, checkId, conclusion, {
    title: `${report.verdict}${accepted !== undefined && report.verdict === "fail" ? " (accepted)" : ""}`,
    summary: report.reasons.join("\n").slice(0, 60_000) || "No change.",
    text: markdown.slice(0, 65_000),
  });
  await react(ctx, conclusion === "failure");
  return { verdict: report.verdict, failed: conclusion === "failure" };
}
