// The two schedules the schedules bench compares, and the record each process leaves. Shared by
// the recorder (bench/schedules-record.ts) and the analysis (bench/schedules-analysis.ts), so the
// two can never disagree on what a schedule ran.

/**
 * Today's schedule: each round one process per side runs the whole selection, with long
 * Criterion times. The new default: each round, for each benchmark in turn, its base process and
 * its head process back to back, each running that one benchmark with short times.
 */
export const SCHEDULES = {
  suite: {
    label: "suite, long",
    flags: ["--warm-up-time", "1", "--measurement-time", "3"],
  },
  pairs: {
    label: "pairs, short",
    flags: ["--warm-up-time", "0.2", "--measurement-time", "0.5", "--sample-size", "10"],
  },
} as const;

export type ScheduleName = keyof typeof SCHEDULES;
export const SCHEDULE_NAMES = Object.keys(SCHEDULES) as ScheduleName[];

/**
 * Ten of bs58 0.5.1's `encode` benchmarks, from about 9 ns to about 100 µs per iteration (their
 * medians in bench/data/aa-bs58-0.5.1), all in one bench binary. Ten, not eight: below ten
 * benchmarks (the default `min-benchmarks-for-period`) the product analyses a suite benchmark by
 * benchmark instead of with its round model, which is not how it sees a real suite.
 */
export const BENCHMARKS = [
  "empty/encode_bs58_noalloc",
  "empty/encode_bs58",
  "1_byte/encode_bs58",
  "5_bytes/encode_base58",
  "10_bytes_zero/encode_rust_base58",
  "10_bytes/encode_bs58",
  "5_bytes/encode_rust_base58",
  "32_bytes/encode_bs58",
  "32_bytes/encode_rust_base58",
  "256_bytes/encode_rust_base58",
] as const;

export type Side = "base" | "head";

/**
 * Whether base runs first. Today's schedule alternates by round (A B | B A | …); the new one
 * alternates by round and by benchmark within a round, so neither side is always first for a
 * benchmark nor within a round.
 */
export function baseFirst(schedule: ScheduleName, round: number, benchmarkIndex = 0): boolean {
  return schedule === "suite" ? round % 2 === 1 : (round + benchmarkIndex) % 2 === 1;
}

/** What one bench-binary process ran and what it cost (processes.json, one per process). */
export interface ProcessRecord {
  readonly schedule: ScheduleName;
  /** The interleaving block: one round of today's schedule and the same time of the new one. */
  readonly block: number;
  readonly round: number;
  readonly side: Side;
  /** The one benchmark it ran; null when it ran the whole selection. */
  readonly benchmark: string | null;
  readonly started_at: string;
  readonly wall_s: number;
  /** User + system CPU time of the process and its children. */
  readonly cpu_s: number;
  /** CPU steal over the whole machine while it ran (all CPUs together). */
  readonly steal_s: number;
  readonly loadavg_start: readonly number[];
  readonly loadavg_end: readonly number[];
}

/** The summary file of one side and round of a schedule, relative to the recording's folder. */
export function summaryPath(schedule: ScheduleName, side: Side, round: number): string {
  return `${schedule}/${side}-${round}.json`;
}
