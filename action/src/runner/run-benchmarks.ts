// `benchgate run`: the exact base and head commits in worktrees, each built once into a target
// directory of its own, then rounds that alternate which side runs first (A B | B A | …; a fixed
// count, or sequential rounds that stop once every benchmark is settled), every output ingested
// and validated into one summary per side and round; or, with `--aba`, base, head, base once
// each (base-head-base-steps.ts). The statistics happen afterwards, on those files alone (the
// same `compare` a user can re-run by hand).
import path from "node:path";
import { InputError, ToolError } from "../errors.ts";
import type { GoldenOutput } from "../golden/check-golden.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";
import { addWorktree, removeWorktree, resolveCommit, type GitDeps } from "../exec/git.ts";
import { checkGoldenIn, produceGoldenOutputs } from "./golden-step.ts";
import type { ProcessOptions } from "../ports/process.ts";
import { formatDuration } from "./progress.ts";
import { runStep } from "../exec/run-step.ts";
import { runRounds } from "./run-rounds.ts";
import { runBaseHeadBase } from "./base-head-base-steps.ts";
import type { RunDeps, RunOutcome, RunRequest } from "./run-request.ts";
import { expandArgv } from "../config/placeholders.ts";
import { cargoBenchBuildArgv } from "../config/suites/cargo-bench-target.ts";
import { prepareGungraun } from "./gungraun-runner.ts";
import type { BenchBinary, Side, SidePaths } from "../config/suites/suite-kind.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { SuitePlan } from "../config/run-config.ts";
import { benchBinaryOf, JSON_MESSAGES, MAX_MESSAGES_BYTES } from "./bench-binary.ts";
import { sideEnv } from "./suite-commands.ts";
import { critcmpTables } from "./critcmp-step.ts";
import { listCriterionSuites } from "./criterion-listing.ts";
import { splitSuites } from "./shard-plan.ts";
import { preparePairs } from "./pair-setup.ts";
import { describeCost, PaceWatch, plannedCost } from "./cost-estimate.ts";
import { watchCargo } from "./build-progress.ts";
import type { RoundPlan } from "./round-plan.ts";
import type { ShardOutcome } from "./run-request.ts";
import { plural } from "./rounds-state.ts";

const MARKER = ".benchgate-run";
/** Everything a previous run left in its output folder; removed before a new run. */
const OUTPUTS = [
  "raw",
  "summaries",
  "logs",
  "report.json",
  "comment.md",
  "critcmp.txt",
  "timings.json",
  "shard.json",
  "where",
] as const;

/** One run per cache directory at a time: this file, held while its target directories are used. */
export function cacheLockFile(cacheDir: string): string {
  return path.join(cacheDir, "run.lock");
}

/** The output folder must be empty or one of ours: we delete inside it. */
async function prepareOut(out: string, deps: RunDeps): Promise<void> {
  const names = await deps.dirs.names(out);
  if (names.length > 0 && !names.includes(MARKER))
    throw new InputError(
      `${out} is not empty and was not made by benchgate run; choose another --out (its contents are replaced)`,
    );
  for (const name of OUTPUTS) await deps.dirs.remove(path.join(out, name));
  await deps.dirs.ensure(path.join(out, "summaries"));
  await deps.dirs.ensure(path.join(out, "logs"));
  await deps.writer.writeText(path.join(out, MARKER), "benchgate run output; safe to delete\n");
}

export async function runBenchmarks(request: RunRequest, deps: RunDeps): Promise<RunOutcome> {
  const { config, repo } = request;
  const { progress } = deps;
  const git: GitDeps = { proc: deps.proc, dirs: deps.dirs, env: deps.env, signal: deps.signal };
  const commits = {
    base: await resolveCommit(repo, request.baseRef, git),
    head: await resolveCommit(repo, request.headRef, git),
  };
  const suites = config.suites.map((s) => `${s.name} (${s.kind})`).join(", ");
  const rounds =
    request.aba === true
      ? "base, head, base (one run each)"
      : config.sequential === undefined
        ? `${config.rounds} round${config.rounds === 1 ? "" : "s"}`
        : `sequential rounds (${config.sequential.minRounds} to ${config.rounds}${config.sequential.timeBudgetMs === undefined ? "" : `, time budget ${formatDuration(config.sequential.timeBudgetMs)}`})`;
  progress.line(
    `base ${request.baseRef} = ${commits.base.slice(0, 12)}, head ${request.headRef} = ${commits.head.slice(0, 12)}; ${rounds} of ${suites}`,
  );
  if (commits.base === commits.head)
    progress.line("base and head are the same commit: an A/A run, nothing should change");
  // Cargo trusts mtimes: another run building into the same target directories after our
  // checkout could make Cargo skip rebuilding our sources. One run per cache directory.
  await deps.dirs.ensure(request.cacheDir);
  const lock = await deps.dirs.lock(cacheLockFile(request.cacheDir));
  if ("heldBy" in lock)
    throw new ToolError(
      `another benchgate run (${lock.heldBy}) is using the cache ${request.cacheDir}; wait for it or pass another --cache-dir`,
    );
  try {
    return await runLocked(request, deps, commits);
  } finally {
    await lock.release();
  }
}

async function runLocked(
  request: RunRequest,
  deps: RunDeps,
  commits: Record<Side, string>,
): Promise<RunOutcome> {
  const { config, out, repo } = request;
  const { progress } = deps;
  const git: GitDeps = { proc: deps.proc, dirs: deps.dirs, env: deps.env, signal: deps.signal };
  await prepareOut(out, deps);
  const logs = path.join(out, "logs");
  const temp = await deps.dirs.makeTemp("benchgate-worktrees-");
  const sides: Record<Side, SidePaths> = {
    base: { worktree: path.join(temp, "base"), target: path.join(request.cacheDir, "target-base") },
    head: { worktree: path.join(temp, "head"), target: path.join(request.cacheDir, "target-head") },
  };
  const added: Side[] = [];
  // Kept (request.keepCheckouts) once the run returns its outcome: then its caller removes them.
  let kept = false;
  const removeCheckouts = async (): Promise<void> => {
    for (const side of added.splice(0))
      await removeWorktree(repo, sides[side].worktree, git).catch(() => undefined);
    await deps.dirs.remove(temp).catch(() => undefined);
  };
  try {
    const checkout = async (side: Side): Promise<void> => {
      progress.line(`checking out ${side} ${commits[side].slice(0, 12)}`);
      // Registered before the checkout so that an interrupted `git worktree add` is cleaned too.
      added.push(side);
      await addWorktree(repo, sides[side].worktree, commits[side], git);
    };
    await checkout("base");
    sides.base = await buildSide("base", sides.base, request, deps);
    // On a machine's first run the head target is empty: start it from base's, so the
    // dependencies (usually identical) compile once. Cargo decides freshness by mtime, so the
    // head checkout must come after this copy: its files are then newer than every copied
    // artifact and Cargo rebuilds the crates whose sources differ.
    if ((await deps.dirs.names(sides.head.target)).length === 0) {
      progress.line("head has no build cache yet: seeding it from base's target directory");
      await deps.dirs.copyTree(sides.base.target, sides.head.target);
    }
    await checkout("head");
    sides.head = await buildSide("head", sides.head, request, deps);

    let golden: GoldenResult[] = [];
    // Golden outputs are checked once per run: by shard 1 of a sharded one.
    if (config.golden !== undefined && (request.shard?.index ?? 1) === 1) {
      progress.line(`golden outputs: ${config.golden.commands.length} command(s) on head`);
      const places = { target: sides.head.target, worktree: sides.head.worktree };
      const outputs: GoldenOutput[] = await produceGoldenOutputs(
        config.golden,
        sides.head.worktree,
        places,
        { ...deps, env: sideEnv(deps.env, sides.head) },
        path.join(logs, "golden-head.log"),
      );
      golden = await checkGoldenIn(config.golden, sides.head.worktree, outputs, deps);
      const changed = golden.filter((g) => !g.ok).map((g) => g.name);
      progress.line(
        changed.length === 0
          ? "golden outputs: all match"
          : `golden outputs: ${changed.length} changed (${changed.join(", ")})`,
      );
    }

    // Shards split, and pairs cut, Criterion suites by the benchmarks both sides list.
    const pairs = config.schedule === "pairs" && request.aba !== true;
    const listed =
      pairs || request.shard !== undefined ? await listSuites(request, sides, deps) : new Map();
    const shard = request.shard === undefined ? undefined : planShard(request, listed, deps);
    const pairSetup = pairs ? await preparePairs(request, sides, listed, deps) : undefined;
    // What the rounds will cost, before the first (a shard's part is said by planShard), and
    // under pairs once more at round 1's pace when round 1 is long.
    if (shard === undefined) {
      const cost = plannedCost(config, pairs ? listed : undefined, pairSetup?.wholeSeconds);
      progress.line(
        describeCost(cost, config, {
          elapsedMs: progress.elapsedMs(),
          ...(request.aba === true ? { aba: true } : {}),
        }),
      );
      if (pairSetup !== undefined) {
        const watch = new PaceWatch(cost, config);
        progress.watchPace((...args) => watch.pace(...args));
      }
    }
    const measured =
      request.aba === true
        ? await runBaseHeadBase(request, sides, commits, deps)
        : await runRounds(request, sides, commits, deps, {
            ...(shard === undefined ? {} : { initial: shard.plan }),
            ...(pairSetup === undefined ? {} : { pairs: pairSetup }),
          });
    const suitesRun = shard?.plan.suites ?? config.suites;
    // Stopped by a signal: no more tools run; the completed rounds are returned as they are.
    const { stopped } = measured;
    const critcmp =
      stopped === undefined
        ? await critcmpTables(suitesRun, out, measured.fullRound, deps)
        : { note: `the run was stopped by ${stopped.signal} before critcmp ran` };
    const keep = request.keepCheckouts === true && stopped === undefined;
    if (keep) kept = true;
    return {
      commits,
      summaries: measured.summaries,
      golden,
      rounds: measured.rounds,
      critcmp: { ...critcmp, round: measured.fullRound },
      ...(shard === undefined ? {} : { shard: shard.outcome }),
      ...(stopped === undefined ? {} : { stopped }),
      benchBinaries: {
        base: sides.base.benchBinaries ?? new Map(),
        head: sides.head.benchBinaries ?? new Map(),
      },
      ...(keep ? { checkouts: { sides: { ...sides }, release: removeCheckouts } } : {}),
    };
  } finally {
    if (!kept) await removeCheckouts();
  }
}

/**
 * This shard's part of the suites: from the Criterion suites' listing of both sides, every shard
 * computes the same split (shard-plan.ts) and keeps its own part.
 */
function planShard(
  request: RunRequest,
  listed: ReadonlyMap<string, readonly string[]>,
  deps: RunDeps,
): { readonly plan: RoundPlan; readonly outcome: ShardOutcome } {
  const shard = request.shard as NonNullable<RunRequest["shard"]>;
  const { suites } = request.config;
  const split = splitSuites(suites, listed, request.together ?? [], shard);
  const digest = deps.sha256(new TextEncoder().encode(split.canonical));
  const { ids, whole } = split.mine;
  const parts = [
    ...(ids > 0 ? [plural(ids, "benchmark")] : []),
    ...(whole.length > 0 ? [`the whole of ${whole.join(", ")}`] : []),
  ];
  deps.progress.line(
    parts.length === 0
      ? `shard ${shard.index}/${shard.count}: nothing to measure (${plural(split.units.total, "unit")} over ${shard.count} shards); it writes empty summaries so that merge sees it ran`
      : `shard ${shard.index}/${shard.count}: ${parts.join(" and ")} (${split.units.mine} of ${plural(split.units.total, "unit")}), in ${plural(split.plan.suites.length, "suite")}`,
  );
  for (const name of split.unfiltered)
    deps.progress.warn(
      `suite ${name}: this shard's ids make a filter too long for one argument; it runs with its own filter and only this shard's benchmarks are kept`,
    );
  return {
    plan: split.plan,
    outcome: { index: shard.index, count: shard.count, digest, units: split.units },
  };
}

/** Every listing suite's ids, both sides' lists together (criterion-listing.ts). */
async function listSuites(
  request: RunRequest,
  sides: Readonly<Record<Side, SidePaths>>,
  deps: RunDeps,
): Promise<Map<string, string[]>> {
  const listing = request.config.suites.filter((s) => suiteKind(s).listArgv !== undefined);
  const { shard } = request;
  const who = shard === undefined ? "" : `shard ${shard.index}/${shard.count}: `;
  if (listing.length > 0)
    deps.progress.line(
      `${who}listing the benchmarks of ${listing.map((s) => s.name).join(", ")} on both sides`,
    );
  return listCriterionSuites(listing, sides, request.out, deps);
}

/** Builds one side; returns its paths with what its gungraun suites need to run. */
async function buildSide(
  side: Side,
  paths: SidePaths,
  request: RunRequest,
  deps: RunDeps,
): Promise<SidePaths> {
  const { config } = request;
  const logs = path.join(request.out, "logs");
  const env = sideEnv(deps.env, paths);
  const logFile = path.join(logs, `build-${side}.log`);
  const steps: BuildStep[] = config.build.map((b) => {
    const argv = expandArgv(b.command, paths);
    return { argv, timeoutMs: b.timeoutMs, label: `build (${side}): ${argv.join(" ")}` };
  });
  // Under pairs a kind's process may run the built executable itself (bench-binary.ts); under
  // any schedule "Where it regressed" runs it under Callgrind, so cargo is asked to name it.
  const direct = config.schedule === "pairs" && request.aba !== true;
  for (const suite of config.suites) {
    const build = suiteKind(suite).build;
    if (build === undefined) continue;
    const target = build.target(suite);
    const json = build.runsExecutable === true;
    steps.push({
      argv: [...cargoBenchBuildArgv(target), ...(json ? [JSON_MESSAGES] : [])],
      timeoutMs: config.buildTimeoutMs,
      label: `suite ${suite.name} (${side}): building bench target ${target.bench}`,
      ...(json ? { binaryOf: { name: suite.name, bench: target.bench } } : {}),
    });
  }
  await deps.dirs.ensure(paths.target);
  const binaries = new Map<string, BenchBinary>();
  for (const step of steps) {
    deps.progress.line(`${step.label}`);
    // Cargo's "Compiling …" lines, counted, and a heartbeat: a cold build is never 30 s of silence.
    const watch = watchCargo(`building ${side}`, deps);
    const options: ProcessOptions = {
      cwd: paths.worktree,
      env,
      timeoutMs: step.timeoutMs,
      signal: deps.signal,
      logFile,
      onLine: watch.onLine,
      ...(step.binaryOf === undefined ? {} : { keepStdoutBytes: MAX_MESSAGES_BYTES }),
    };
    try {
      const result = await runStep(deps.proc, step.label, step.argv, options);
      const suite = step.binaryOf;
      if (suite === undefined) continue;
      const binary = benchBinaryOf(result.stdout, suite.bench, paths);
      if (binary !== undefined) binaries.set(suite.name, binary);
      else
        deps.progress.warn(
          `suite ${suite.name} (${side}): cargo named no usable executable for bench target ${suite.bench}; ${direct ? "each process runs through cargo bench (about 0.2 s more per process), and " : ""}its regressions get no Where`,
        );
    } catch (error) {
      const bench = (s: SuitePlan): string | undefined => suiteKind(s).build?.target(s).bench;
      const missing = config.suites.find((s) => {
        const name = bench(s);
        return (
          name !== undefined &&
          error instanceof ToolError &&
          (error.details ?? "").includes(`no bench target named \`${name}\``)
        );
      });
      if (missing !== undefined)
        throw new InputError(
          `suite ${missing.name}: the ${side} commit has no bench target named ${JSON.stringify(bench(missing))} (check [[bench]] in Cargo.toml)`,
          { source: config.source, jsonPath: `/suites/${config.suites.indexOf(missing)}/bench` },
        );
      throw error;
    } finally {
      watch.stop();
    }
  }
  const suiteEnv = new Map<string, Readonly<Record<string, string>>>();
  for (const suite of config.suites) {
    const build = suiteKind(suite).build;
    if (build?.needsHarnessRunner === true)
      suiteEnv.set(
        suite.name,
        await prepareGungraun(
          { name: suite.name, ...build.target(suite) },
          side,
          paths,
          request.toolsDir,
          { ...deps, env },
        ),
      );
  }
  return {
    ...paths,
    ...(suiteEnv.size === 0 ? {} : { suiteEnv }),
    ...(binaries.size === 0 ? {} : { benchBinaries: binaries }),
  };
}

/** One build command of a side; `binaryOf`: the suite and bench target whose executable it names. */
interface BuildStep {
  readonly argv: readonly string[];
  readonly timeoutMs: number;
  readonly label: string;
  readonly binaryOf?: { readonly name: string; readonly bench: string };
}
