// The schedules bench: today's schedule ("suite, long") against the new default ("pairs, short"),
// interleaved on one machine, A/A, decided by the product's own compare.
//   scripts/record-schedules.sh quiet|busy|bursty [MINUTES]   (records; calls `record` below)
//   node bench/schedules.ts analyse bench/data/schedules-busy [--resamples 1000] [--replays 100]
//     → bench/results/schedules-busy.md (and .json), named for the recording's folder
import { writeFileSync } from "node:fs";
import path from "node:path";
import { resolveSettings } from "../action/src/core/settings.ts";
import { decide, compareSchedules, type ScheduleComparison } from "./schedules-analysis.ts";
import { recordSchedules } from "./schedules-record.ts";
import { SCHEDULES, SCHEDULE_NAMES, type ProcessRecord } from "./schedules-design.ts";
import { readRecording, type Recording } from "./schedules-recording.ts";
import { RESULTS, ROOT, median, option, writeResult } from "./support.ts";

const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(2)} %` : "none");
/** min / median / max */
const spread = (xs: readonly number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[0] ?? NaN, median(s), s.at(-1) ?? NaN].map((x) => x.toFixed(2)).join(" / ");
};

/** What the processes met: load averages, CPU share, steal, wall time per process. */
function conditionRows(processes: readonly ProcessRecord[]): string[] {
  return SCHEDULE_NAMES.map((s) => {
    const mine = processes.filter((p) => p.schedule === s);
    const share = mine.map((p) => p.cpu_s / p.wall_s);
    return (
      `| ${SCHEDULES[s].label} | ${mine.length} | ${spread(mine.map((p) => p.wall_s))} | ` +
      `${spread(mine.map((p) => p.loadavg_start[0] as number))} | ${spread(share)} | ` +
      `${mine.reduce((t, p) => t + p.steal_s, 0).toFixed(1)} |`
    );
  });
}

/** How many builds load.log shows, and the share of each schedule's processes that met one. */
function buildLines(rec: Recording): string[] {
  const builds = rec.builds;
  if (builds === undefined) return [];
  const met = SCHEDULE_NAMES.map((s) => {
    const mine = rec.processes.filter((p) => p.schedule === s);
    const overlapping = mine.filter((p) => {
      const start = Date.parse(p.started_at);
      const end = start + p.wall_s * 1000;
      return builds.some((b) => b.start < end && b.end > start);
    });
    return `${SCHEDULES[s].label} ${overlapping.length} of ${mine.length}`;
  });
  const minutes = builds.map((b) => (b.end - b.start) / 60_000);
  return [
    `The load's builds (load.log): ${builds.length}, ${spread(minutes)} min each ` +
      `(min / median / max); processes that ran while one was building: ${met.join(", ")}.`,
    "",
  ];
}

function resultsMarkdown(
  rec: Recording,
  c: ScheduleComparison,
  dir: string,
  method: string,
): string {
  const { meta } = rec;
  const rel = path.relative(ROOT, dir);
  const minutes = (s: number): string => `${(s / 60).toFixed(1)} min`;
  const rows = SCHEDULE_NAMES.map((s) => {
    const f = c.schedules[s];
    const inj = f.injections
      .map((i) => `${i.found}/${i.slowed} (${pct(i.share)}), ${i.unslowedFlagged} unslowed flagged`)
      .join(" | ");
    return (
      `| ${SCHEDULES[s].label} | ${rec.rounds[s].length} | ${f.rounds} (${minutes(f.seconds)}) | ` +
      `${pct(f.medianMde)} | ${f.aa.gateFailures}/${f.aa.replays} (${pct(f.aa.share)}), ` +
      `${f.aa.falseRegressions} benchmarks | ${inj} |`
    );
  });
  const factors = c.schedules.suite.injections.map((i) => `×${i.factor} found`).join(" | ");
  const r = c.mdeRatio;
  return [
    `# Schedules, ${meta.condition}: today's "suite, long" against the new "pairs, short"`,
    "",
    `A/A: ${meta.crate}, one binary copied to two paths; ${meta.benchmarks.length} benchmarks. ` +
      `Recorded ${meta.started_at} to ${meta.finished_at} (${meta.minutes} min of interleaved ` +
      `blocks) with \`${meta.command}\`; beside it: ${meta.load_command === "" ? "nothing started by the script" : `\`${meta.load_command}\``}.`,
    "",
    ...SCHEDULE_NAMES.map((s) => `- ${SCHEDULES[s].label}: \`${meta.schedules[s].command}\``),
    "",
    "What the processes met (min / median / max):",
    "",
    "| schedule | processes | wall per process (s) | 1-min load average at start | CPU share (CPU time / wall) | steal (s, all CPUs) |",
    "|---|---|---|---|---|---|",
    ...conditionRows(rec.processes),
    "",
    ...buildLines(rec),
    `Both schedules cut to the same process wall time, ${minutes(c.seconds)} (whole rounds of ` +
      `the one schedule that fit in the other's recording; the other cut there too), and decided by the product's \`compare\` with its default ` +
      `settings: "${method}". A/A replays: the rounds as recorded, then random label swaps per ` +
      `round. Injections: per replay a random relabelling and a random quarter of the benchmarks ` +
      `slowed in head (samples and estimates).`,
    "",
    `| schedule | rounds recorded | rounds at equal time | median MDE | A/A gate failures, regressed benchmarks | ${factors} |`,
    `|---|---|---|---|---|${c.schedules.suite.injections.map(() => "---|").join("")}`,
    ...rows,
    "",
    `Median MDE today / new: **${r.point.toFixed(2)}×** (95 % bootstrap interval ` +
      `${r.lower.toFixed(2)}–${r.upper.toFixed(2)}; ${r.resamples} resamples of the rounds within ` +
      `each run order${r.undefined > 0 ? `, ${r.undefined} without a median MDE left out` : ""}).`,
    "",
    `Re-run on this recording: \`node bench/schedules.ts analyse ${rel}\``,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "record") {
    await recordSchedules({
      binaries: { base: option("base", ""), head: option("head", "") },
      work: option("work", ""),
      out: option("out", ""),
      minutes: Number(option("minutes", "22")),
      condition: option("condition", ""),
      loadCommand: option("load-command", ""),
      crate: option("crate", ""),
      command: option("command", ""),
    });
    return;
  }
  const dir = rest[0];
  if (command !== "analyse" || dir === undefined) {
    process.stderr.write(
      "usage: node bench/schedules.ts analyse DIR [--resamples N] [--replays N]\n",
    );
    process.exit(2);
  }
  const recording = readRecording(path.resolve(dir));
  const settings = resolveSettings();
  const comparison = compareSchedules(recording.rounds, {
    settings,
    resamples: Number(option("resamples", "1000")),
    replays: Number(option("replays", "100")),
    factors: [1.05, 1.25],
    seed: Number(option("seed", "26")),
  });
  const method = decide(recording.rounds.pairs, settings).settings.method;
  // Named for the recording's directory, so that two recordings of one condition keep two results.
  const name = path.basename(path.resolve(dir));
  writeResult(name, comparison);
  writeFileSync(
    path.join(RESULTS, `${name}.md`),
    resultsMarkdown(recording, comparison, path.resolve(dir), method),
  );
}

await main();
