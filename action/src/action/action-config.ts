// The action's inputs and the run's GitHub context, read once into a frozen, validated config,
// so no later step reads an input or the environment on its own. Every error names the input.
// Pure: inputs and environment are parameters.
import { InputError } from "../errors.ts";
import { MAX_SHARDS, parseShard, type ShardTag as Shard } from "../core/shard-blocks.ts";

const MODES = ["gate", "measure", "report", "authorize"] as const;
type Mode = (typeof MODES)[number];

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
  /** authorize: when set, only these user ids may run commands (docs/threat-model.md, C3). */
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
  /** measure: this job is shard I of N of a matrix (docs/shards.md). */
  readonly shard?: Shard;
  /** report: the measure matrix had N shards; `results` holds shard-1 … shard-N. */
  readonly shards?: number;
  /**
   * report: the gh-pages history. On a push the verdict's commit is appended to it; on a pull
   * request or a /rebench it is only read, for the noise of one run per side.
   */
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

const MEASURE_RESULTS = ["success", "failure", "cancelled", "skipped"] as const;
type MeasureResult = (typeof MEASURE_RESULTS)[number];

type InputReader = (name: string) => string;

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

type Env = Readonly<Record<string, string | undefined>>;

function readMode(input: InputReader): Mode {
  const mode = optional(input, "mode") ?? "gate";
  if (!(MODES as readonly string[]).includes(mode))
    throw new InputError(
      `input 'mode' must be one of ${MODES.join(", ")}, got ${JSON.stringify(mode)}`,
    );
  return mode as Mode;
}

/** A filter reaches a command line as one argument: it must not read as an option or split. */
function readFilter(input: InputReader): string | undefined {
  const filter = optional(input, "filter");
  if (filter !== undefined && (filter.length > 200 || filter.startsWith("-") || /\s/.test(filter)))
    throw new InputError(
      "input 'filter' must be one regular expression without spaces, at most 200 characters, not starting with '-'",
    );
  return filter;
}

function readAllowedUserIds(input: InputReader): ReadonlySet<number> | undefined {
  const allowed = optional(input, "allowed-user-ids");
  if (allowed === undefined) return undefined;
  const ids = allowed.split(/[\s,]+/).filter((x) => x !== "");
  if (ids.length === 0 || ids.some((x) => !/^[1-9][0-9]{0,15}$/.test(x)))
    throw new InputError(
      "input 'allowed-user-ids' must list numeric GitHub user ids, separated by commas or spaces (ids, not logins: a login can be renamed and taken)",
    );
  return new Set(ids.map(Number));
}

/** The inputs every mode reads: the token, the config file, the filter and who may command. */
function readCommonInputs(input: InputReader, mode: Mode) {
  // The measure job talks to no API: it runs the pull request's code and must hold no token.
  const token = mode === "measure" ? "" : optional(input, "github-token");
  if (token === undefined) throw new InputError("input 'github-token' is empty");
  const configPath = optional(input, "config") ?? "benchgate.yml";
  if (configPath.startsWith("/") || configPath.split(/[/\\]/).includes(".."))
    throw new InputError("input 'config' must be a path inside the repository");
  const filter = readFilter(input);
  return { token, configPath, filter, allowedUserIds: readAllowedUserIds(input) };
}

/** report: the measure job's folder and how that job ended, both required. */
function readReportInputs(
  input: InputReader,
  mode: Mode,
): { readonly results?: string; readonly measureResult?: MeasureResult } {
  const results = optional(input, "results");
  const measureResult = optional(input, "measure-result");
  if (mode !== "report") return {};
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
  return { results, measureResult: measureResult as MeasureResult };
}

/** measure: `shard: I/N`; report: `shards: N`. Each belongs to its mode only. */
function readShardInputs(
  input: InputReader,
  mode: Mode,
): { readonly shard?: Shard; readonly shards?: number } {
  const text = optional(input, "shard");
  const shards = integer(input, "shards", 1, MAX_SHARDS);
  if (text !== undefined && mode !== "measure")
    throw new InputError("input 'shard' belongs to mode: measure (one job of the matrix)");
  if (shards !== undefined && mode !== "report")
    throw new InputError("input 'shards' belongs to mode: report (the job that merges them)");
  return {
    ...(text === undefined ? {} : { shard: parseShard(text, "input 'shard'") }),
    ...(shards === undefined ? {} : { shards }),
  };
}

/**
 * report: the gh-pages history, when history-branch is set: appended to on a push, only read on
 * a pull request or a /rebench (report-mode.ts tells which from the event).
 */
function readHistoryInputs(input: InputReader, mode: Mode): ActionConfig["history"] {
  const branch = optional(input, "history-branch");
  if (branch === undefined) return undefined;
  const remote = optional(input, "history-remote");
  const maxCommits = integer(input, "history-max-commits", 1, 100_000);
  const history = Object.freeze({
    branch,
    dir: optional(input, "history-dir") ?? "benchgate",
    ...(remote === undefined ? {} : { remote }),
    ...(maxCommits === undefined ? {} : { maxCommits }),
  });
  if (mode !== "report")
    throw new InputError(
      "input 'history-branch' belongs to mode: report (written on pushes, read on pull requests)",
    );
  return history;
}

function readFailOnInconclusive(input: InputReader): boolean {
  const value = optional(input, "fail-on-inconclusive") ?? "false";
  if (value !== "true" && value !== "false")
    throw new InputError("input 'fail-on-inconclusive' must be true or false");
  return value === "true";
}

/** The commits, pull request, comment and check run a caller names, and a rounds override. */
function readRunInputs(input: InputReader) {
  return {
    baseSha: sha(input, "base-sha"),
    headSha: sha(input, "head-sha"),
    prNumber: integer(input, "pr-number", 1, 1e9),
    commandCommentId: integer(input, "command-comment-id", 1, Number.MAX_SAFE_INTEGER),
    checkId: integer(input, "check-id", 1, Number.MAX_SAFE_INTEGER),
    rounds: integer(input, "rounds", 1, 100),
  };
}

function readRepository(env: Env): { readonly owner: string; readonly repo: string } {
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
  return { owner, repo };
}

/** The run's GitHub context: what Actions sets in every job's environment. */
function readGitHubContext(
  env: Env,
  repository: { readonly owner: string; readonly repo: string },
): ActionConfig["github"] {
  return Object.freeze({
    eventName: required(env, "GITHUB_EVENT_NAME"),
    eventPath: required(env, "GITHUB_EVENT_PATH"),
    owner: repository.owner,
    repo: repository.repo,
    apiUrl: env["GITHUB_API_URL"] ?? "https://api.github.com",
    serverUrl: env["GITHUB_SERVER_URL"] ?? "https://github.com",
    workspace: env["GITHUB_WORKSPACE"] ?? ".",
    runId: env["GITHUB_RUN_ID"] ?? "",
  });
}

/**
 * Reads every input, group by group, in a fixed order (so the first problem reported does not
 * depend on which groups are wrong), then the run's context from the environment.
 */
export function readActionConfig(input: InputReader, env: Env): ActionConfig {
  const mode = readMode(input);
  const common = readCommonInputs(input, mode);
  const report = readReportInputs(input, mode);
  const sharding = readShardInputs(input, mode);
  const history = readHistoryInputs(input, mode);
  const failOnInconclusive = readFailOnInconclusive(input);
  const repository = readRepository(env);
  const run = readRunInputs(input);
  const optionalFields = {
    baseSha: run.baseSha,
    headSha: run.headSha,
    prNumber: run.prNumber,
    commandCommentId: run.commandCommentId,
    checkId: run.checkId,
    allowedUserIds: common.allowedUserIds,
    rounds: run.rounds,
    filter: common.filter,
    ...report,
    ...sharding,
    history,
  };
  const defined = Object.fromEntries(
    Object.entries(optionalFields).filter(([, v]) => v !== undefined),
  );
  return Object.freeze({
    mode,
    configPath: common.configPath,
    token: common.token,
    ...defined,
    out: optional(input, "out") ?? ".benchgate/run",
    botUserId: integer(input, "bot-user-id", 1, Number.MAX_SAFE_INTEGER) ?? 41898282,
    failOnInconclusive,
    github: readGitHubContext(env, repository),
  });
}
