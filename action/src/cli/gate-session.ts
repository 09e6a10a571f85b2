// The whole `benchgate run` session, shared by the CLI command and the GitHub action: the config
// from the base commit, the runner, the decision, and the files in the output folder.
import os from "node:os";
import path from "node:path";
import { resolveRunConfig, type RunConfig } from "../config/run-config.ts";
import { planNextRound } from "../core/sequential.ts";
import type { CompareSettings } from "../core/settings.ts";
import { InputError } from "../errors.ts";
import { renderComment, type CommentOptions } from "../render/comment.ts";
import { critcmpFile } from "../runner/critcmp-step.ts";
import { fileAtCommit, resolveCommit } from "../runner/git-worktrees.ts";
import { Progress } from "../runner/progress.ts";
import { runGate } from "../runner/run-gate.ts";
import type { RoundPlanner } from "../runner/sequential-rounds.ts";
import { describeTimings, StepTimings } from "../runner/step-timings.ts";
import { MAX_BYTES, parseYamlText, readConfigFile } from "../schemas/read-document.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { validateConfig } from "../schemas/validate.ts";
import type { Machine } from "../ports/machine.ts";
import { budgetRules, gateReport } from "./gate-report.ts";
import { withFilter } from "../config/run-filter.ts";

export interface SessionRequest {
  readonly repo: string;
  readonly baseRef: string;
  readonly headRef: string;
  readonly out: string;
  readonly cacheDir: string;
  /** A config file to use instead of the one in the base commit. */
  readonly configFile?: string | undefined;
  /** Path of the config inside the base commit (default benchgate.yml). */
  readonly configPath?: string | undefined;
  /** A fixed count or "auto" (sequential rounds), over the config's rounds:. */
  readonly rounds?: number | "auto" | undefined;
  /** Sequential rounds only: over the config's min-rounds, max-rounds and time-budget. */
  readonly minRounds?: number | undefined;
  readonly maxRounds?: number | undefined;
  readonly timeBudgetMs?: number | undefined;
  /** Replaces every Criterion suite's filter and selects hyperfine commands by name. */
  readonly filter?: string | undefined;
  /** The statistics settings for this config (its statistics: block plus the caller's overrides). */
  readonly settings: (config: RunConfig) => CompareSettings;
  readonly quiet: boolean;
  /** Extra options for the comment (the action's marker). */
  readonly comment?: CommentOptions;
}

export interface SessionResult {
  readonly config: RunConfig;
  readonly report: BenchReport;
  readonly markdown: string;
  readonly reportFile: string;
  readonly commentFile: string;
  readonly progress: Progress;
  /** How many rounds ran, and the round critcmp's table compares. */
  readonly rounds: { readonly run: number; readonly critcmp: number };
}

export function defaultCacheDir(env: Readonly<Record<string, string>>): string {
  const explicit = env["BENCHGATE_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".cache");
  return path.join(base, "benchgate");
}

/** The config from `file`, else from the base commit, so a change cannot loosen its own gate. */
export async function loadRunConfig(request: SessionRequest, deps: Machine): Promise<RunConfig> {
  const opts = {
    needSuites: true,
    ...(request.rounds === undefined ? {} : { rounds: request.rounds }),
    ...(request.minRounds === undefined ? {} : { minRounds: request.minRounds }),
    ...(request.maxRounds === undefined ? {} : { maxRounds: request.maxRounds }),
    ...(request.timeBudgetMs === undefined ? {} : { timeBudgetMs: request.timeBudgetMs }),
  };
  if (request.configFile !== undefined)
    return resolveRunConfig(
      await readConfigFile(deps.reader, request.configFile),
      request.configFile,
      opts,
    );
  const configPath = request.configPath ?? "benchgate.yml";
  const git = { proc: deps.proc, dirs: deps.dirs, env: deps.env };
  const sha = await resolveCommit(request.repo, request.baseRef, git);
  const text = await fileAtCommit(request.repo, sha, configPath, MAX_BYTES.config, git);
  const source = `${configPath} at ${request.baseRef} (${sha.slice(0, 12)})`;
  if (text === undefined)
    throw new InputError(
      `the base commit ${request.baseRef} (${sha.slice(0, 12)}) has no ${configPath}; commit one (benchgate init), or point to another file (the CLI's --config, the action's config input)`,
    );
  return resolveRunConfig(validateConfig(parseYamlText(text, source), source), source, opts);
}

export async function runSession(request: SessionRequest, deps: Machine): Promise<SessionResult> {
  const system = deps;
  const loaded = await loadRunConfig(request, deps);
  const config = request.filter === undefined ? loaded : withFilter(loaded, request.filter);
  const settings = request.settings(config);
  const budgets = budgetRules(config.document, config.source);
  const progress = new Progress(request.quiet ? () => undefined : deps.err, system.clock);
  const { sequential } = config;
  if (sequential === undefined && config.rounds < 3)
    progress.warn(
      `${config.rounds} round(s): too few to estimate noise; changes are only flagged beyond the unverified threshold`,
    );
  if (sequential !== undefined && sequential.minRounds < 3)
    progress.warn(
      `min-rounds ${sequential.minRounds}: a benchmark may stop after ${sequential.minRounds} rounds, too few to estimate its noise well; 3 or more is safer`,
    );
  // The core's look after each round from min-rounds on, with this run's settings and design
  // (the same design every summary records, from which compare replays the looks).
  let planNext: RoundPlanner | undefined;
  if (sequential !== undefined) {
    const design = { minRounds: sequential.minRounds, maxRounds: config.rounds };
    planNext = (base, head) => planNextRound(base, head, settings, design);
  }
  const { out } = request;
  const timings = new StepTimings();
  const interrupts = system.interrupts();
  let outcome;
  try {
    outcome = await runGate(
      {
        repo: request.repo,
        baseRef: request.baseRef,
        headRef: request.headRef,
        out,
        cacheDir: request.cacheDir,
        config,
        ...(planNext === undefined ? {} : { planNext }),
      },
      {
        proc: timings.wrap(system.proc),
        dirs: system.dirs,
        reader: deps.reader,
        writer: deps.writer,
        clock: system.clock,
        sha256: system.sha256,
        env: system.env,
        signal: interrupts.signal,
        progress,
        environment: system.environment,
      },
    );
  } finally {
    interrupts.dispose();
  }
  progress.line("comparing");
  const report = gateReport({
    base: outcome.summaries.base,
    head: outcome.summaries.head,
    settings,
    budgets,
    filtered: request.filter !== undefined,
    golden: outcome.golden,
    smells: config.document.smells,
    now: deps.clock.date(),
  });
  const reportFile = path.join(out, "report.json");
  const commentFile = path.join(out, "comment.md");
  await deps.writer.writeText(reportFile, JSON.stringify(report, null, 2) + "\n");
  const critcmpTable = outcome.critcmp.table;
  if (critcmpTable !== undefined) await deps.writer.writeText(critcmpFile(out), critcmpTable);
  else progress.warn(`no critcmp table: ${outcome.critcmp.note ?? "unknown reason"}`);
  const markdown = renderComment(report, {
    ...request.comment,
    ...(critcmpTable === undefined ? {} : { critcmpTable }),
  });
  await deps.writer.writeText(commentFile, markdown);
  const timing = timings.document(progress.elapsedMs());
  await deps.writer.writeText(
    path.join(out, "timings.json"),
    JSON.stringify(timing, null, 2) + "\n",
  );
  progress.line(describeTimings(timing));
  return {
    config,
    report,
    markdown,
    reportFile,
    commentFile,
    progress,
    rounds: { run: outcome.rounds, critcmp: outcome.critcmp.round },
  };
}
