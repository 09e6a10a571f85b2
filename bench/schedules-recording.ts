// Reads a schedules recording (bench/data/schedules-<condition>/, written by
// bench/schedules-record.ts): every summary validated as summary.v1, and each round's wall time
// as the sum of its processes' (processes.json), the time the equal-time cut is made on.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { validateSummary } from "../action/src/schemas/validate-document.ts";
import type { ScheduleRound } from "./schedules-analysis.ts";
import {
  SCHEDULE_NAMES,
  summaryPath,
  type ProcessRecord,
  type ScheduleName,
  type Side,
} from "./schedules-design.ts";

/** meta.json of a recording (the fields the analysis reads). */
export interface RecordingMeta {
  readonly crate: string;
  readonly condition: string;
  readonly load_command: string;
  readonly benchmarks: readonly string[];
  readonly minutes: number;
  readonly started_at: string;
  readonly finished_at: string;
  readonly command: string;
  readonly schedules: Readonly<Record<ScheduleName, { rounds: number; command: string }>>;
}

export interface Recording {
  readonly meta: RecordingMeta;
  readonly processes: readonly ProcessRecord[];
  readonly rounds: Readonly<Record<ScheduleName, readonly ScheduleRound[]>>;
  /** The bursty load's builds from load.log (ms since the epoch); undefined without one. */
  readonly builds: readonly { start: number; end: number }[] | undefined;
}

/**
 * load.log's `build start T` / `build end T exit N` lines as intervals; a build still running
 * when the load was stopped ends with the recording.
 */
export function buildIntervals(log: string, finishedAt: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start: number | undefined;
  for (const line of log.split("\n")) {
    const m = /^build (start|end) (\S+)/.exec(line);
    if (m === null) continue;
    const t = Date.parse(m[2] as string);
    if (m[1] === "start") start = t;
    else if (start !== undefined) {
      out.push({ start, end: t });
      start = undefined;
    }
  }
  if (start !== undefined) out.push({ start, end: Date.parse(finishedAt) });
  return out;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

export function readRecording(dir: string): Recording {
  const meta = readJson(path.join(dir, "meta.json")) as RecordingMeta;
  const processes = readJson(path.join(dir, "processes.json")) as ProcessRecord[];
  const summary = (schedule: ScheduleName, side: Side, round: number) => {
    const file = path.join(dir, summaryPath(schedule, side, round));
    return { source: file, summary: validateSummary(readJson(file), file) };
  };
  const rounds = {} as Record<ScheduleName, ScheduleRound[]>;
  for (const schedule of SCHEDULE_NAMES) {
    rounds[schedule] = Array.from({ length: meta.schedules[schedule].rounds }, (_, i) => {
      const round = i + 1;
      const mine = processes.filter((p) => p.schedule === schedule && p.round === round);
      if (mine.length === 0) throw new Error(`${dir}: no process of ${schedule} round ${round}`);
      return {
        round,
        base: summary(schedule, "base", round),
        head: summary(schedule, "head", round),
        wallSeconds: mine.reduce((s, p) => s + p.wall_s, 0),
      };
    });
  }
  const log = path.join(dir, "load.log");
  const builds = existsSync(log)
    ? buildIntervals(readFileSync(log, "utf8"), meta.finished_at)
    : undefined;
  return { meta, processes, rounds, builds };
}
