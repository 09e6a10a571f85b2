// mode: gate — benchmark base and head, then report in the order that keeps the verdict safe:
// the check run is opened first, the comment, job summary and outputs are written next, and only
// then is the check completed and the step failed. A comment that cannot be posted (a read-only
// fork token, an API outage) is a warning: the verdict still reaches the check and the summary.
import path from "node:path";
import type { CliDeps } from "../cli/deps.ts";
import { defaultCacheDir, runSession } from "../cli/gate-session.ts";
import { resolveSettings } from "../core/settings.ts";
import { InputError } from "../errors.ts";
import { findAcceptance, type Acceptance } from "../github/acceptance.ts";
import type { CheckConclusion, GitHubPort } from "../github/github-port.ts";
import { GATE_MARKER, upsertSticky } from "../github/sticky-comment.ts";
import { settingsFrom } from "../cli/settings-input.ts";
import { codeBlock } from "../render/code-block.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { CHECK_NAME } from "../bot/authorize.ts";
import type { ActionConfig } from "./action-config.ts";
import type { ActionIO } from "./action-io.ts";
import type { GateEvent } from "./event.ts";
import { gateAnnotations } from "./annotations.ts";

const SHA = /^[0-9a-f]{40}$/;

export interface GateTarget {
  readonly baseSha: string;
  readonly headSha: string;
  readonly prNumber?: number;
}

/** What to benchmark: the inputs (a pinned /rebench run) win over the event. */
export function gateTarget(config: ActionConfig, event: GateEvent): GateTarget {
  const pr = config.prNumber ?? (event.kind === "pull_request" ? event.number : undefined);
  if ((config.baseSha === undefined) !== (config.headSha === undefined))
    throw new InputError("inputs 'base-sha' and 'head-sha' go together: give both or neither");
  if (config.baseSha !== undefined && config.headSha !== undefined)
    return {
      baseSha: config.baseSha,
      headSha: config.headSha,
      ...(pr === undefined ? {} : { prNumber: pr }),
    };
  if (event.kind === "pull_request") {
    // Fork code never runs here automatically: a maintainer's /rebench pins its SHA instead.
    if (event.headRepo !== event.baseRepo)
      throw new InputError(
        `pull request #${event.number} comes from a fork (${event.headRepo || "a deleted repository"}); fork PRs are benchmarked only through a maintainer's /rebench`,
      );
    return { baseSha: event.baseSha, headSha: event.headSha, prNumber: event.number };
  }
  if (event.kind === "push") {
    if (!SHA.test(event.before) || /^0+$/.test(event.before))
      throw new InputError("this push has no previous commit to compare with (a new branch?)");
    return { baseSha: event.before, headSha: event.after };
  }
  throw new InputError(
    `mode: gate needs a pull_request or push event, or the inputs base-sha and head-sha (event: ${event.kind === "other" ? event.name : event.kind})`,
  );
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

export interface GateOutcome {
  readonly verdict: BenchReport["verdict"];
  readonly failed: boolean;
}

export async function runGateMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: ActionIO,
  cli: CliDeps,
): Promise<GateOutcome> {
  const target = gateTarget(config, event);
  const warn = (what: string, error: unknown): void =>
    io.warning(`${what}: ${(error as Error).message}`);
  let checkId: number | undefined;
  try {
    checkId = await github.createCheck(target.headSha, CHECK_NAME, {
      title: "Benchmarking",
      summary: `Comparing ${target.headSha.slice(0, 12)} with ${target.baseSha.slice(0, 12)} in interleaved rounds.`,
    });
  } catch (error) {
    warn("could not create the check run", error);
  }
  // No comparison could be made: the check must not stay "in progress" for ever, nor the
  // /rebench command go unanswered. runAction then reports the error and fails the step.
  const finishOnError = async (error: unknown): Promise<void> => {
    const message =
      error instanceof InputError
        ? error.describe()
        : error instanceof Error
          ? error.message
          : String(error);
    if (checkId !== undefined) {
      try {
        await github.completeCheck(checkId, "failure", {
          title: "error",
          summary: `benchgate could not compare the commits:\n\n${codeBlock(message, { language: "text" }).markdown}`,
        });
      } catch (completeError) {
        warn("could not complete the check run", completeError);
      }
    }
    if (config.commandCommentId !== undefined) {
      try {
        await github.addReaction(config.commandCommentId, "-1");
      } catch (reactError) {
        warn("could not react to the command", reactError);
      }
    }
  };
  const repo = path.resolve(config.github.workspace);
  const session = await runSession(
    {
      repo,
      baseRef: target.baseSha,
      headRef: target.headSha,
      out: path.resolve(repo, config.out),
      cacheDir: defaultCacheDir(cli.system.env),
      configPath: config.configPath,
      rounds: config.rounds,
      filter: config.filter,
      settings: (run) => {
        const base = settingsFrom(run.document, { flags: new Map(), positionals: [] });
        return config.failOnInconclusive
          ? resolveSettings({ ...base, failOnInconclusive: true })
          : base;
      },
      quiet: false,
      comment: { marker: GATE_MARKER },
    },
    cli,
  ).catch(async (error: unknown) => {
    await finishOnError(error);
    throw error;
  });
  const { report } = session;
  let markdown = session.markdown;
  let accepted: Acceptance | undefined;
  if (target.prNumber !== undefined) {
    try {
      accepted = findAcceptance(
        await github.listComments(target.prNumber),
        config.botUserId,
        target.headSha,
      );
    } catch (error) {
      warn("could not read acceptance records", error);
    }
    if (accepted !== undefined && report.verdict === "fail")
      markdown = `${markdown}\n\n**Accepted:** @${accepted.login} accepted this result for \`${target.headSha.slice(0, 12)}\`: ${accepted.reason}\n`;
    try {
      const sticky = await upsertSticky(github, target.prNumber, markdown, config.botUserId);
      io.info(`PR comment ${sticky.action} (${sticky.commentId})`);
    } catch (error) {
      warn(
        "could not post the PR comment (the verdict is still in the check and the job summary)",
        error,
      );
    }
  }
  await io.summary(markdown);
  io.setOutput("verdict", report.verdict);
  io.setOutput("report-path", session.reportFile);
  io.setOutput("markdown", markdown);
  for (const a of gateAnnotations(report)) io.annotate(a.title, a.message);

  const conclusion = conclusionOf(report, accepted, config.failOnInconclusive);
  if (checkId !== undefined) {
    try {
      await github.completeCheck(checkId, conclusion, {
        title: `${report.verdict}${accepted !== undefined && report.verdict === "fail" ? " (accepted)" : ""}`,
        summary: report.reasons.join("\n").slice(0, 60_000) || "No change.",
        text: markdown.slice(0, 65_000),
      });
    } catch (error) {
      warn("could not complete the check run", error);
    }
  }
  if (config.commandCommentId !== undefined) {
    try {
      await github.addReaction(config.commandCommentId, conclusion === "failure" ? "-1" : "+1");
    } catch (error) {
      warn("could not react to the command", error);
    }
  }
  return { verdict: report.verdict, failed: conclusion === "failure" };
}
