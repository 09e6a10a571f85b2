// What a benchmark run is given and what it returns, apart from the code that runs it, so that
// the round loop (run-rounds.ts) and the run around it (run-benchmarks.ts) both depend on these
// types and not on each other.

import type { RunConfig } from "../config/run-config.ts";
import type { Clock } from "../ports/clock.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { FileReader, FileWriter } from "../ports/files.ts";
import type { Sha256 } from "../ports/machine.ts";
import type { ProcessPort } from "../ports/process.ts";
import type { ServicePort } from "../ports/services.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";
import type { BenchSummary, Environment } from "../schemas/summary.gen.ts";
import type { Progress } from "./progress.ts";
import type { RoundPlanner } from "./sequential-rounds.ts";
import type { BenchBinary, Side, SidePaths } from "../config/suites/suite-kind.ts";
import type { ShardTag as Shard } from "../core/shard-blocks.ts";
import type { ShardSplit } from "./shard-plan.ts";
import type { InterruptedError } from "../exec/run-step.ts";

export interface RunDeps {
  readonly proc: ProcessPort;
  /** Servers that load suites run against. */
  readonly services: ServicePort;
  readonly dirs: DirPort;
  readonly reader: FileReader;
  readonly writer: FileWriter;
  readonly clock: Clock;
  readonly sha256: Sha256;
  /** The environment children start from (PATH, HOME, RUSTUP_TOOLCHAIN …). */
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly progress: Progress;
  /** The fingerprint of this machine as seen from `cwd` (rustc there may be pinned). */
  readonly environment: (cwd: string) => Promise<Environment>;
}

export interface RunRequest {
  readonly repo: string;
  readonly baseRef: string;
  readonly headRef: string;
  readonly out: string;
  /** Holds target-base/ and target-head/, kept between runs so dependencies build once. */
  readonly cacheDir: string;
  /** Tools benchgate installs, kept per machine (gungraun's runner, one folder per version). */
  readonly toolsDir: string;
  readonly config: RunConfig;
  /**
   * With rounds: auto (config.sequential), the statistics core's look after each round from
   * min-rounds on: which benchmarks the next round measures.
   */
  readonly planNext?: RoundPlanner;
  /**
   * `--aba`: base, head, base, each once (base rounds 1 and 2, head round 1), instead of
   * interleaved rounds; config.rounds is then 1, with no planner and no shard.
   */
  readonly aba?: boolean;
  /** `--shard I/N`: measure only this shard's part of every suite (docs/shards.md). */
  readonly shard?: Shard;
  /**
   * Pairs of ids compared with each other on one side (claims, head to head): one shard each,
   * and one process under schedule: pairs.
   */
  readonly together?: readonly (readonly [string, string])[];
  /**
   * Leave both worktrees in place after a run that was not stopped: the outcome's `checkouts`
   * holds them until its caller releases them ("Where it regressed" runs commands in them).
   */
  readonly keepCheckouts?: boolean;
}

/** Both sides' worktrees, left in place by `keepCheckouts` until `release` removes them. */
interface KeptCheckouts {
  readonly sides: Readonly<Record<Side, SidePaths>>;
  /** Removes both worktrees; never throws. */
  release(): Promise<void>;
}

/** What a shard measured, and the digest of the split every shard of the run must share. */
export interface ShardOutcome extends Shard {
  readonly digest: string;
  /** How many units, this shard's, and every unit with the shard it was dealt to. */
  readonly units: ShardSplit["units"];
}

export interface RunOutcome {
  readonly commits: Readonly<Record<Side, string>>;
  readonly summaries: Readonly<Record<Side, readonly { source: string; summary: BenchSummary }[]>>;
  readonly golden: readonly GoldenResult[];
  /**
   * How many rounds ran (sequential rounds may stop before config.rounds); with `aba`, 2 (base's
   * two runs; head has round 1 only).
   */
  readonly rounds: number;
  /**
   * critcmp's table of the latest round in which every benchmark ran (the last round; with
   * rounds: auto, min-rounds or a later round that was not narrowed), or why there is none.
   */
  readonly critcmp: { readonly table?: string; readonly note?: string; readonly round: number };
  readonly shard?: ShardOutcome;
  /**
   * Per side, the bench executables cargo named (schedule: pairs), by suite name: they stay in
   * the side's target directory after the run, for "Where it regressed" (gate/where-step.ts).
   */
  readonly benchBinaries?: Readonly<Record<Side, ReadonlyMap<string, BenchBinary>>>;
  /** With `keepCheckouts`, the worktrees still in place; the caller must release them. */
  readonly checkouts?: KeptCheckouts;
  /**
   * Ctrl-C or SIGTERM stopped the rounds: \`summaries\` and \`rounds\` hold the rounds both sides
   * completed (possibly none), and critcmp did not run.
   */
  readonly stopped?: StoppedRun;
}

/** What stopped a run before its rounds ended. */
export interface StoppedRun {
  /** The signal's name ("SIGTERM"), or "a signal". */
  readonly signal: string;
  /** What the interrupted step raised ("interrupted during suite micro (head, round 3)"). */
  readonly error: InterruptedError;
}
