// mode: authorize — decides whether a `/rebench` comment may run, and pins what it runs (the
// head and base SHAs, rounds, filter) as step outputs for the jobs that follow. The decision is
// the bot's (bot/authorize.ts); this adapter only feeds it the event and writes its answer.
import { authorize } from "../bot/authorize.ts";
import { InputError } from "../errors.ts";
import type { GateEvent } from "../github/event.ts";
import type { GitHubPort } from "../ports/github.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { ActionConfig } from "./action-config.ts";

/** An optional number or string as a step output: empty when absent. */
function output(value: number | string | undefined): string {
  return value === undefined ? "" : String(value);
}

export async function runAuthorizeMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: StepIO,
): Promise<void> {
  if (event.kind !== "comment")
    throw new InputError(
      `mode: authorize runs on issue_comment events, not ${config.github.eventName}`,
    );
  const result = await authorize(event, github, {
    botUserId: config.botUserId,
    log: io.info,
    ...(config.allowedUserIds === undefined ? {} : { allowedUserIds: config.allowedUserIds }),
  });
  io.info(`authorize: ${result.why}`);
  io.setOutput("run", result.run ? "true" : "false");
  io.setOutput("head-sha", output(result.headSha));
  io.setOutput("base-sha", output(result.baseSha));
  io.setOutput("pr-number", output(result.prNumber));
  io.setOutput("comment-id", output(result.commentId));
  io.setOutput("rounds", output(result.rounds));
  io.setOutput("filter", output(result.filter));
  io.setOutput("check-id", output(result.checkId));
}
