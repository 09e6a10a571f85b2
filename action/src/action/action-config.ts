// The action's inputs and the run's GitHub context, read once into a frozen, validated config
// (house style P2). Every error names the input. Pure: inputs and environment are parameters.
import { InputError } from "../errors.ts";

export const MODES = ["gate", "measure", "report", "authorize"] as const;
export type Mode = (typeof MODES)[number];

export interface ActionConfig {
  readonly mode: Mode;
  readonly configPath: string;
  readonly token: string;
  readonly baseSha?: string;
  readonly headSha?: string;
  readonly prNumber?: number;
  readonly commandCommentId?: number;
  /** The check run the authorizer opened for a /rebench (completed by report or gate). */
  readonly checkId?: number;
  /** authorize: when set, only these user ids may run commands (A9). */
  readonly allowedUserIds?: ReadonlySet<number>;
  readonly rounds?: number;
  readonly filter?: string;
  readonly out: string;
  readonly botUserId: number;
  readonly failOnInconclusive: boolean;
  /** report: the measure job's output folder (its artifact, downloaded). */
  readonly results?: string;
  /** report: how the measure job ended (`needs.measure.result`). */
  readonly measureResult?: MeasureResult;
  /** report on a push: also append the verdict's commit to this gh-pages history. */
  readonly history?: {
    readonly branch: string;
    readonly dir: string;
    readonly remote?: string;
    readonly maxCommits?: number;
  };
  /** From the runner's environment. */
  readonly github: {
    readonly eventName: string;
    readonly eventPath: string;
    readonly owner: string;
    readonly repo: string;
    readonly apiUrl: string;
    readonly serverUrl: string;
    readonly workspace: string;
    readonly runId: string;
  };
}

export const MEASURE_RESULTS = ["success", "failure", "cancelled", "skipped"] as const;
export type MeasureResult = (typeof MEASURE_RESULTS)[number];

export type InputReader = (name: string) => string;

const SHA = /^[0-9a-f]{40}$/;

function optional(input: InputReader, name: string): string | undefined {
  const value = input(name).trim();
  return value === "" ? undefined : value;
}

function sha(input: InputReader, name: string): string | undefined {
  const value = optional(input, name);
  if (value !== undefined && !SHA.test(value))
    throw new InputError(`input '${name}' must be a full 40-character lower-case hex commit SHA`);
  return value;
}

function integer(input: InputReader, name: string, min: number, max: number): number | undefined {
  const value = optional(input, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new InputError(
      `input '${name}' must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  return n;
}

function required(env: Readonly<Record<string, string | undefined>>, name: string): string {
  const value = env[name];
  if (value === undefined || value === "")
    throw new InputError(
      `${name} is not set: run this inside GitHub Actions (or set it as Actions does)`,
    );
  return value;
}

export function readActionConfig(
  input: InputReader,
  env: Readonly<Record<string, string | undefined>>,
): ActionConfig {
  const mode = optional(input, "mode") ?? "gate";
  if (!(MODES as readonly string[]).includes(mode))
    throw new InputError(
      `input 'mode' must be one of ${MODES.join(", ")}, got ${JSON.stringify(mode)}`,
    );
  // The measure job talks to no API: it runs the pull request's code and must hold no token.
  const token = mode === "measure" ? "" : optional(input, "github-token");
  if (token === undefined) throw new InputError("input 'github-token' is empty");
  const configPath = optional(input, "config") ?? "benchgate.yml";
  if (configPath.startsWith("/") || configPath.split(/[/\\]/).includes(".."))
    throw new InputError("input 'config' must be a path inside the repository");
  const filter = optional(input, "filter");
  if (filter !== undefined && (filter.length > 200 || filter.startsWith("-") || /\s/.test(filter)))
    throw new InputError(
      "input 'filter' must be one regular expression without spaces, at most 200 characters, not starting with '-'",
    );
  const allowed = optional(input, "allowed-user-ids");
  let allowedUserIds: ReadonlySet<number> | undefined;
  if (allowed !== undefined) {
    const ids = allowed.split(/[\s,]+/).filter((x) => x !== "");
    if (ids.length === 0 || ids.some((x) => !/^[1-9][0-9]{0,15}$/.test(x)))
      throw new InputError(
        "input 'allowed-user-ids' must list numeric GitHub user ids, separated by commas or spaces (ids, not logins: a login can be renamed and taken)",
      );
    allowedUserIds = new Set(ids.map(Number));
  }
  const results = optional(input, "results");
  const measureResult = optional(input, "measure-result");
  if (mode === "report") {
    if (results === undefined)
      throw new InputError("mode: report needs input 'results' (the measure job's folder)");
    if (measureResult === undefined)
      throw new InputError(
        "mode: report needs input 'measure-result' (needs.<measure job>.result): a verdict is never reported without knowing how the measurement ended",
      );
    if (!(MEASURE_RESULTS as readonly string[]).includes(measureResult))
      throw new InputError(
        `input 'measure-result' must be one of ${MEASURE_RESULTS.join(", ")}, got ${JSON.stringify(measureResult)}`,
      );
  }
  const historyBranch = optional(input, "history-branch");
  const history =
    historyBranch === undefined
      ? undefined
      : Object.freeze({
          branch: historyBranch,
          dir: optional(input, "history-dir") ?? "benchgate",
          ...(optional(input, "history-remote") === undefined
            ? {}
            : { remote: optional(input, "history-remote") }),
          ...(integer(input, "history-max-commits", 1, 100_000) === undefined
            ? {}
            : { maxCommits: integer(input, "history-max-commits", 1, 100_000) }),
        });
  if (history !== undefined && mode !== "report")
    throw new InputError("input 'history-branch' belongs to mode: report (on pushes)");
  const failOnInconclusive = optional(input, "fail-on-inconclusive") ?? "false";
  if (failOnInconclusive !== "true" && failOnInconclusive !== "false")
    throw new InputError("input 'fail-on-inconclusive' must be true or false");
  const repository = required(env, "GITHUB_REPOSITORY");
  const [owner, repo, extra] = repository.split("/");
  if (
    owner === undefined ||
    repo === undefined ||
    extra !== undefined ||
    owner === "" ||
    repo === ""
  )
    throw new InputError(`GITHUB_REPOSITORY must be owner/name, got ${JSON.stringify(repository)}`);
  const optionalFields = {
    baseSha: sha(input, "base-sha"),
    headSha: sha(input, "head-sha"),
    prNumber: integer(input, "pr-number", 1, 1e9),
    commandCommentId: integer(input, "command-comment-id", 1, Number.MAX_SAFE_INTEGER),
    checkId: integer(input, "check-id", 1, Number.MAX_SAFE_INTEGER),
    allowedUserIds,
    rounds: integer(input, "rounds", 1, 100),
    filter,
    ...(mode === "report" ? { results, measureResult } : {}),
    history,
  };
  const defined = Object.fromEntries(
    Object.entries(optionalFields).filter(([, v]) => v !== undefined),
  );
  return Object.freeze({
    mode: mode as Mode,
    configPath,
    token,
    ...defined,
    out: optional(input, "out") ?? ".benchgate/run",
    botUserId: integer(input, "bot-user-id", 1, Number.MAX_SAFE_INTEGER) ?? 41898282,
    failOnInconclusive: failOnInconclusive === "true",
    github: Object.freeze({
      eventName: required(env, "GITHUB_EVENT_NAME"),
      eventPath: required(env, "GITHUB_EVENT_PATH"),
      owner,
      repo,
      apiUrl: env["GITHUB_API_URL"] ?? "https://api.github.com",
      serverUrl: env["GITHUB_SERVER_URL"] ?? "https://github.com",
      workspace: env["GITHUB_WORKSPACE"] ?? ".",
      runId: env["GITHUB_RUN_ID"] ?? "",
    }),
  });
}
