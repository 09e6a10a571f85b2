// Measuring a plan: both commits built and benchmarked in interleaved rounds (a fixed count, or
// sequential rounds that stop once every benchmark is settled), or base, head, base once each.
// It decides nothing; decide.ts judges what it returns. The CLI's `run` and the action's gate and
// measure modes share it.
import os from "node:os";
import path from "node:path";
import type { SourcedSummary } from "../core/pairing.ts";
import { planNextRound } from "../core/sequential.ts";
import type { Machine } from "../ports/machine.ts";
import { Progress } from "../runner/progress.ts";
import { runBenchmarks } from "../runner/run-benchmarks.ts";
import type { RoundPlanner } from "../runner/sequential-rounds.ts";
import { StepTimings } from "../runner/step-timings.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";
import type { GatePlan } from "./plan.ts";
import { keepClaimsOpen } from "./claim-rounds.ts";
import { InputError } from "../errors.ts";
import type { ShardTag as Shard } from "../core/shard-blocks.ts";
import type { RunOutcome, ShardOutcome, StoppedRun } from "../runner/run-request.ts";
import type { Side } from "../config/suites/suite-kind.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { NoiseSource } from "../core/compare-summaries.ts";

/** Which commits, in which repository, and where the files go. */
export interface MeasureTarget {
  readonly repo: string;
  readonly baseRef: string;
  readonly headRef: string;
  readonly out: string;
  /** Holds target-base/ and target-head/, kept between runs so dependencies build once. */
  readonly cacheDir: string;
  /** `--shard I/N`: this machine measures shard I of N (docs/shards.md). */
  readonly shard?: Shard;
}

export interface Measurement {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly golden: readonly GoldenResult[];
  /** critcmp's table of the round it compares, or why there is none. */
  readonly critcmp: { readonly table?: string; readonly note?: string; readonly round: number };
  /** How many rounds ran (sequential rounds may stop early). */
  readonly rounds: number;
  /** Progress lines, warnings and the run's elapsed time. */
  readonly progress: Progress;
  /** Where the time went, per step. */
  readonly timings: StepTimings;
  readonly commits: Readonly<Record<Side, string>>;
  /** A sharded run: which shard, and the split every shard shares. */
  readonly shard?: ShardOutcome;
  /** Base, head, base: the decision takes the noise from the two base runs. */
  readonly noise?: NoiseSource;
  /** Per side, the bench executables the run built, by suite name (for ./where-step.ts). */
  readonly benchBinaries?: RunOutcome["benchBinaries"];
  /** With options.keepCheckouts, both worktrees, until the caller releases them. */
  readonly checkouts?: RunOutcome["checkouts"];
  /**
   * Ctrl-C or SIGTERM stopped the rounds: base, head and \`rounds\` hold the rounds both sides
   * completed (possibly none); the caller decides whether they make a partial report.
   */
  readonly stopped?: StoppedRun;
}

/**
 * Ids compared with each other on one side of a round (a claim's pair, a variant and its
 * reference): a sharded run keeps each pair on one machine.
 */
function comparedTogether(plan: GatePlan): (readonly [string, string])[] {
  return [
    ...plan.claims.map((c) => [c.faster, c.than] as const),
    ...(plan.headToHead ?? []).map((p) => [p.reference.id, p.other.id] as const),
  ];
}

/**
 * Why `--aba` and `--shard` do not mix: base, head, base takes its noise from the two base runs of
 * each benchmark on the machine that ran head between them.
 */
export const ABA_WITH_SHARD =
  "--aba cannot be combined with --shard: a benchmark's two base runs and its head run must run in one job, on one machine (drop --shard, or drop --aba and give --rounds N)";

/** $BENCHGATE_CACHE_DIR, else the XDG cache directory's benchgate/. */
export function defaultCacheDir(env: Readonly<Record<string, string>>): string {
  const explicit = env["BENCHGATE_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".cache");
  return path.join(base, "benchgate");
}

/**
 * Where tools benchgate installs (gungraun's runner, one folder per version) are kept:
 * $BENCHGATE_TOOLS_DIR, else tools/ in the default cache directory. Not under --cache-dir, so a
 * fresh cache of build outputs does not install the same runner again.
 */
function defaultToolsDir(env: Readonly<Record<string, string>>): string {
  const explicit = env["BENCHGATE_TOOLS_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  return path.join(defaultCacheDir(env), "tools");
}

/** Too few rounds to estimate noise is allowed, but said. */
function warnAboutRounds(plan: GatePlan, progress: Progress): void {
  const { run } = plan;
  // Counts need no noise estimate: two rounds already check that they are deterministic.
  const counted = (suite: { readonly kind: string }): boolean =>
    suiteKind(suite).deterministicCounts !== undefined;
  if (plan.aba) {
    // The timings' noise is the two base runs'; a count's determinism needs two runs per side.
    if (run.suites.some(counted))
      progress.warn(
        "base, head, base: head runs once, so whether its instruction counts are deterministic is not checked (rounds check it)",
      );
    return;
  }
  if (run.suites.some(counted) && run.sequential === undefined && run.rounds < 2)
    progress.warn(
      "1 round: whether the instruction counts are deterministic is not checked (2 rounds or more check it)",
    );
  if (run.suites.every(counted)) return;
  if (run.sequential === undefined && run.rounds < 3)
    progress.warn(
      `${run.rounds} round(s): too few to estimate noise; changes are only flagged beyond the unverified threshold`,
    );
  if (run.sequential !== undefined && run.sequential.minRounds < 3)
    progress.warn(
      `min-rounds ${run.sequential.minRounds}: a benchmark may stop after ${run.sequential.minRounds} rounds, too few to estimate its noise well; 3 or more is safer`,
    );
}

/**
 * With rounds: auto, the statistics core's look after each round from min-rounds on, with this
 * plan's settings and design (the same design every summary records, from which compare replays
 * the looks).
 */
function roundPlanner(plan: GatePlan): RoundPlanner | undefined {
  const { sequential } = plan.run;
  if (sequential === undefined) return undefined;
  const design = {
    minRounds: sequential.minRounds,
    maxRounds: plan.run.rounds,
    ...(sequential.timeBudgetMs === undefined ? {} : { timeBudgetMs: sequential.timeBudgetMs }),
  };
  return (base, head) =>
    keepClaimsOpen(
      planNextRound(base, head, plan.settings, design),
      plan.claims,
      { base, head },
      {
        last: Math.max(0, ...head.map((h) => h.summary.round)),
        max: design.maxRounds,
        confidence: plan.settings.confidence,
      },
    );
}

export async function measure(
  plan: GatePlan,
  target: MeasureTarget,
  machine: Machine,
  options: { readonly quiet: boolean; readonly keepCheckouts?: boolean },
): Promise<Measurement> {
  // Base and head of one benchmark on two machines would be noise the base runs cannot show.
  if (target.shard !== undefined && plan.aba) throw new InputError(ABA_WITH_SHARD);
  const progress = new Progress(
    options.quiet ? () => undefined : machine.err,
    machine.clock,
    options.quiet ? undefined : machine.status,
  );
  warnAboutRounds(plan, progress);
  const planNext = roundPlanner(plan);
  const timings = new StepTimings();
  const interrupts = machine.interrupts();
  try {
    const outcome = await runBenchmarks(
      {
        ...target,
        toolsDir: defaultToolsDir(machine.env),
        config: plan.run,
        ...(plan.aba ? { aba: true } : {}),
        ...(planNext === undefined ? {} : { planNext }),
        // Ids compared on one side stay in one shard, and in one process of a pair.
        together: comparedTogether(plan),
        ...(target.shard === undefined ? {} : { shard: target.shard }),
        ...(options.keepCheckouts === true ? { keepCheckouts: true } : {}),
      },
      {
        proc: timings.wrap(machine.proc),
        services: machine.services,
        dirs: machine.dirs,
        reader: machine.reader,
        writer: machine.writer,
        clock: machine.clock,
        sha256: machine.sha256,
        env: machine.env,
        signal: interrupts.signal,
        progress,
        environment: machine.environment,
      },
    );
    return {
      base: outcome.summaries.base,
      head: outcome.summaries.head,
      golden: outcome.golden,
      critcmp: outcome.critcmp,
      rounds: outcome.rounds,
      progress,
      timings,
      commits: outcome.commits,
      ...(outcome.shard === undefined ? {} : { shard: outcome.shard }),
      ...(plan.aba ? { noise: { kind: "aba" } as const } : {}),
      ...(outcome.stopped === undefined ? {} : { stopped: outcome.stopped }),
      ...(outcome.benchBinaries === undefined ? {} : { benchBinaries: outcome.benchBinaries }),
      ...(outcome.checkouts === undefined ? {} : { checkouts: outcome.checkouts }),
    };
  } finally {
    interrupts.dispose();
  }
}
