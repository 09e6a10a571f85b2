// What the `benchgate` check runs of a commit say, as the bot reads them: whether a benchmark of
// it is queued or running (docs/threat-model.md, C6), and which confirmed regressions its latest
// completed result failed on, the only thing a `/benchgate accept` can accept (C7).
//
// Only check runs of benchgate's own app count: the app whose bot is `bot-user-id` (a GitHub
// App's bot user is `<app slug>[bot]`, read by id, so a renamed or re-registered login changes
// nothing). GitHub lets an app create and update only its own check runs, so no other app or
// user can forge one. Within that app (github-actions for the default GITHUB_TOKEN), a workflow
// of this repository with `checks: write` could write one — but such a workflow could complete
// a passing `benchgate` check directly, so the marker gives it nothing more; a fork's
// pull_request workflow gets a read-only token and cannot.
import { appOfBot, readResultMarker } from "../github/acceptance.ts";
import { CHECK_NAME } from "../github/check-name.ts";
import type { CheckRun, GitHubPort } from "../ports/github.ts";
import type { AcceptRefusal } from "../render/bot-replies.ts";

/**
 * A queued or running check older than this is taken as abandoned (its run was cancelled before
 * the report job could complete it): the measure job's timeout plus a long queue.
 */
export const STALE_CHECK_MS = 6 * 60 * 60 * 1000;

/** Queued or running, and not yet abandoned. */
export function isActive(check: CheckRun, now: number): boolean {
  return (
    check.status !== "completed" &&
    (check.startedAt === null || now - Date.parse(check.startedAt) < STALE_CHECK_MS)
  );
}

type Acceptable =
  | { readonly ok: true; readonly checkId: number; readonly ids: readonly string[] }
  | { readonly ok: false; readonly refusal: AcceptRefusal; readonly log?: string };

const refuse = (refusal: AcceptRefusal, log?: string): Acceptable => ({
  ok: false,
  refusal,
  ...(log === undefined ? {} : { log }),
});

/** The slug of the app whose bot is `botUserId`, or a refusal. */
async function ourApp(github: GitHubPort, botUserId: number): Promise<string | Acceptable> {
  let login: string;
  try {
    login = await github.userLogin(botUserId);
  } catch (error) {
    return refuse(
      { kind: "unreadable" },
      `could not read the bot user: ${(error as Error).message}`,
    );
  }
  return appOfBot(login) ?? refuse({ kind: "no-app", login });
}

/** The completed run that is the commit's current result: the one completed last. */
function latestCompleted(runs: readonly CheckRun[]): CheckRun | undefined {
  const at = (c: CheckRun): number => Date.parse(c.completedAt ?? "") || 0;
  return runs
    .filter((c) => c.status === "completed")
    .sort((a, b) => at(b) - at(a) || b.id - a.id)[0];
}

/** Why the result of `latest` cannot be accepted, or its regressions. */
function judge(latest: CheckRun, sha: string): Acceptable {
  if (latest.conclusion !== "failure")
    return refuse({ kind: "not-failed", conclusion: latest.conclusion ?? "none" });
  const result = readResultMarker(latest.text, sha);
  if (result === undefined) return refuse({ kind: "unlisted", checkId: latest.id });
  const { regressions, other } = result;
  if (regressions.kind === "listed" && regressions.ids.length === 0)
    return other.length > 0
      ? refuse({ kind: "not-regressions", other })
      : refuse({ kind: "unlisted", checkId: latest.id });
  if (other.length > 0) return refuse({ kind: "other-failures", other });
  if (regressions.kind === "too-many")
    return refuse({ kind: "too-many", count: regressions.count });
  return { ok: true, checkId: latest.id, ids: regressions.ids };
}

/**
 * The regressions a `/benchgate accept` of `sha` may accept: those listed by benchgate's latest
 * completed `benchgate` check of that SHA, when it failed because of them and nothing else, and
 * no newer benchmark of it is under way. Anything unreadable refuses (fail closed).
 */
export async function acceptableResult(
  github: GitHubPort,
  botUserId: number,
  sha: string,
  now: number,
): Promise<Acceptable> {
  const app = await ourApp(github, botUserId);
  if (typeof app !== "string") return app;
  let runs: CheckRun[];
  try {
    runs = await github.listChecks(sha, CHECK_NAME);
  } catch (error) {
    return refuse({ kind: "unreadable" }, `could not list the checks: ${(error as Error).message}`);
  }
  const ours = runs.filter((c) => c.app === app && c.headSha === sha);
  const running = ours.find((c) => isActive(c, now));
  if (running !== undefined) return refuse({ kind: "running", checkId: running.id });
  const latest = latestCompleted(ours);
  if (latest === undefined) return refuse({ kind: "no-result" });
  return judge(latest, sha);
}
