// Runs today's schedule and the new default interleaved in blocks (one round of today's, then
// rounds of the new one until both have spent the same process time; the next block the other
// way round), so both see the same conditions; then reads each schedule's Criterion tree with the
// product's own ingest into one summary per side and round. Called by scripts/record-schedules.sh,
// which builds the binaries and starts the condition's load.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, release } from "node:os";
import path from "node:path";
import { exactIdFilter } from "../action/src/config/suites/criterion/exact-id-filter.ts";
import { ingestBaselines } from "../action/src/ingest/index.ts";
import { nodeFileReader } from "../action/src/io/node-files.ts";
import {
  BENCHMARKS,
  SCHEDULES,
  SCHEDULE_NAMES,
  baseFirst,
  summaryPath,
  type ProcessRecord,
  type ScheduleName,
  type Side,
} from "./schedules-design.ts";

export interface RecordOptions {
  readonly binaries: Readonly<Record<Side, string>>;
  readonly work: string;
  readonly out: string;
  readonly minutes: number;
  /** Written to meta.json as given: what ran beside the rounds and how it was recorded. */
  readonly condition: string;
  readonly loadCommand: string;
  readonly crate: string;
  readonly command: string;
}

const SUITE_NAME = "bs58-encode";

function loadavg(): number[] {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
}

/** CPU ticks of this process's waited-for children (cutime + cstime of /proc/self/stat). */
function childTicks(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name, which may itself hold spaces: field 3 is index 0.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[13]) + Number(fields[14]);
}

/** Steal ticks of all CPUs (/proc/stat, the `cpu` line's eighth value). */
function stealTicks(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  return Number(line.trim().split(/\s+/)[8] ?? 0);
}

function clockTicks(): number {
  const r = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const hz = Number(r.stdout.trim());
  return Number.isInteger(hz) && hz > 0 ? hz : 100;
}

class Recorder {
  readonly processes: ProcessRecord[] = [];
  readonly #options: RecordOptions;
  readonly #hz = clockTicks();
  readonly #log: number;
  block = 0;

  constructor(options: RecordOptions) {
    this.#options = options;
    this.#log = openSync(path.join(options.work, "criterion-console.log"), "w");
  }

  close(): void {
    closeSync(this.#log);
  }

  home(schedule: ScheduleName): string {
    return path.join(this.#options.work, `criterion-${schedule}`);
  }

  /** One bench-binary process; returns its wall time in seconds. */
  #run(schedule: ScheduleName, round: number, side: Side, ids: readonly string[]): number {
    const filter = exactIdFilter(ids);
    if (filter === undefined) throw new Error(`no exact Criterion filter for ${ids.join(", ")}`);
    const args = [
      "--bench",
      "--noplot",
      ...SCHEDULES[schedule].flags,
      "--save-baseline",
      `${side}-${round}`,
      filter,
    ];
    const load0 = loadavg();
    const cpu0 = childTicks();
    const steal0 = stealTicks();
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const r = spawnSync(this.#options.binaries[side], args, {
      cwd: this.#options.work,
      env: { ...process.env, CRITERION_HOME: this.home(schedule) },
      stdio: ["ignore", this.#log, "pipe"],
      encoding: "utf8",
    });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) {
      throw new Error(
        `${schedule} round ${round} ${side} exited ${String(r.status ?? r.signal)}: ${r.stderr.slice(-2000)}`,
      );
    }
    this.processes.push({
      schedule,
      block: this.block,
      round,
      side,
      benchmark: ids.length === 1 ? (ids[0] as string) : null,
      started_at: startedAt,
      wall_s: Number(wall.toFixed(4)),
      cpu_s: (childTicks() - cpu0) / this.#hz,
      steal_s: (stealTicks() - steal0) / this.#hz,
      loadavg_start: load0,
      loadavg_end: loadavg(),
    });
    return wall;
  }

  /** One round of a schedule; returns the wall time its processes took. */
  round(schedule: ScheduleName, round: number): number {
    const sides = (first: boolean): Side[] => (first ? ["base", "head"] : ["head", "base"]);
    let wall = 0;
    if (schedule === "suite") {
      for (const side of sides(baseFirst(schedule, round)))
        wall += this.#run(schedule, round, side, BENCHMARKS);
    } else {
      BENCHMARKS.forEach((id, i) => {
        for (const side of sides(baseFirst(schedule, round, i)))
          wall += this.#run(schedule, round, side, [id]);
      });
    }
    process.stderr.write(
      `[schedules] block ${this.block} ${schedule} round ${round}: ${wall.toFixed(1)} s, load ${loadavg().join(" ")}\n`,
    );
    return wall;
  }
}

/** The summaries of one schedule, one per side and round, stamped with their processes' times. */
async function writeSummaries(
  recorder: Recorder,
  schedule: ScheduleName,
  out: string,
): Promise<number> {
  // Criterion also keeps `new` (whichever ran last): only the named baselines are rounds.
  const read = [];
  for (const side of ["base", "head"] as const) {
    read.push(
      ...(await ingestBaselines(
        "criterion",
        recorder.home(schedule),
        { baselines: `${side}-*`, suite: SUITE_NAME },
        nodeFileReader,
      )),
    );
  }
  mkdirSync(path.join(out, schedule), { recursive: true });
  for (const { baseline, summary } of read) {
    const mine = recorder.processes.filter(
      (p) => p.schedule === schedule && `${p.side}-${p.round}` === baseline,
    );
    const ids = summary.benchmarks.map((b) => b.id).sort();
    if (mine.length === 0 || ids.join("\n") !== [...BENCHMARKS].sort().join("\n"))
      throw new Error(
        `${schedule} ${baseline}: ${ids.length} benchmarks, ${mine.length} processes`,
      );
    const starts = mine.map((p) => Date.parse(p.started_at));
    const ends = mine.map((p) => Date.parse(p.started_at) + p.wall_s * 1000);
    summary.started_at = new Date(Math.min(...starts)).toISOString();
    summary.finished_at = new Date(Math.max(...ends)).toISOString();
    writeFileSync(
      path.join(out, summaryPath(schedule, summary.side as Side, summary.round)),
      JSON.stringify(summary) + "\n",
    );
  }
  return read.length / 2;
}

export async function recordSchedules(options: RecordOptions): Promise<void> {
  const recorder = new Recorder(options);
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const rounds: Record<ScheduleName, number> = { suite: 0, pairs: 0 };
  const spent: Record<ScheduleName, number> = { suite: 0, pairs: 0 };
  const next = (schedule: ScheduleName): void => {
    spent[schedule] += recorder.round(schedule, ++rounds[schedule]);
  };
  let lastSuiteRound = 0;
  try {
    while ((Date.now() - t0) / 60_000 < options.minutes) {
      recorder.block++;
      // Odd blocks: today's round first, then the new one catches up; even blocks the reverse,
      // up to what today's next round will cost, so neither always runs first in a block.
      if (recorder.block % 2 === 1) {
        const before = spent.suite;
        next("suite");
        lastSuiteRound = spent.suite - before;
        while (spent.pairs < spent.suite) next("pairs");
      } else {
        while (spent.pairs < spent.suite + lastSuiteRound) next("pairs");
        next("suite");
      }
    }
  } finally {
    recorder.close();
  }
  const finishedAt = new Date().toISOString();
  rmSync(options.out, { recursive: true, force: true });
  mkdirSync(options.out, { recursive: true });
  for (const schedule of SCHEDULE_NAMES) await writeSummaries(recorder, schedule, options.out);
  writeFileSync(
    path.join(options.out, "processes.json"),
    `[\n${recorder.processes.map((p) => JSON.stringify(p)).join(",\n")}\n]\n`,
  );
  const meta = {
    crate: options.crate,
    suite: SUITE_NAME,
    condition: options.condition,
    load_command: options.loadCommand,
    benchmarks: BENCHMARKS,
    schedules: Object.fromEntries(
      SCHEDULE_NAMES.map((s) => [
        s,
        {
          label: SCHEDULES[s].label,
          command: `CRITERION_HOME=<work>/criterion-${s} <bench binary of the side> --bench --noplot ${SCHEDULES[s].flags.join(" ")} --save-baseline <side>-<round> <exact-id filter of ${s === "suite" ? "all benchmarks" : "one benchmark"}>`,
          rounds: rounds[s],
          process_seconds: Number(spent[s].toFixed(1)),
        },
      ]),
    ),
    blocks: recorder.block,
    minutes: options.minutes,
    started_at: startedAt,
    finished_at: finishedAt,
    machine: { nproc: cpus().length, cpu_model: cpus()[0]?.model ?? "unknown", kernel: release() },
    command: options.command,
  };
  writeFileSync(path.join(options.out, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
}
