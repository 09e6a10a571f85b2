// Detection quality of load suites on this machine: the demo crate's HTTP server
// (examples/demo-crate/src/bin/demo-server.rs) under oha, N A/A runs and N runs whose head adds
// a fixed delay to every request, each a full `benchgate run` with interleaved rounds.
//   node bench/load-suite.ts [--runs 10] [--rounds 5] [--delay-ms 5] [--duration 1s]
// Reports: false alarms (any primary entry regressed or improved) over the A/A runs, how often
// the delayed head's p99 and req/s were found regressed, the median MDE per metric, wall time.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import { median, option, ROOT, writeResult } from "./support.ts";
import { git } from "../action/test/support/git-repo.ts";
import {
  SERVER_SOURCE,
  withDelay,
  writeDemoServerCrate,
} from "../action/test/support/demo-server-crate.ts";

const runs = Number(option("runs", "10"));
const rounds = Number(option("rounds", "5"));
const delayMs = Number(option("delay-ms", "5"));
const duration = option("duration", "1s");
const work = path.join(ROOT, ".benchgate/bench-load");
const CONFIG = `version: 1
rounds: ${rounds}
build:
  - ["cargo", "build", "--release", "--bin", "demo-server"]
suites:
  - name: api
    kind: load
    server: ["{target}/release/demo-server", "--port", "{port}"]
    ready: /health
    duration: ${duration}
    connections: 8
    endpoints:
      - name: health
        path: /health
      - name: stats
        path: /stats?count=1000
`;

/** base; `aa` (an empty commit on it); `slow` (the delay set in the server). */
function setUp(): string {
  const repo = path.join(work, "repo");
  rmSync(repo, { recursive: true, force: true });
  const server = writeDemoServerCrate(repo);
  writeFileSync(path.join(repo, "benchgate.yml"), CONFIG);
  git(repo, ["init", "--quiet", "-b", "base"]);
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "-m", "base"]);
  git(repo, ["checkout", "--quiet", "-b", "aa"]);
  git(repo, ["commit", "--quiet", "--allow-empty", "-m", "A/A"]);
  git(repo, ["checkout", "--quiet", "-b", "slow", "base"]);
  writeFileSync(path.join(repo, SERVER_SOURCE), withDelay(server, delayMs));
  git(repo, ["commit", "--quiet", "--all", "-m", `+${delayMs} ms per request`]);
  return repo;
}

function run(repo: string, head: string): { report: BenchReport; seconds: number } {
  const out = path.join(work, "out");
  rmSync(out, { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [
      "action/src/cli/index.ts",
      "run",
      ...["--repo", repo, "--base", "base", "--head", head, "--out", out],
      ...["--cache-dir", path.join(work, "cache")],
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.status !== 0 && r.status !== 1) {
    process.stderr.write(r.stderr);
    throw new Error(`benchgate run exited with ${String(r.status)}`);
  }
  const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as BenchReport;
  return { report, seconds: (Date.now() - started) / 1000 };
}

const repo = setUp();
const falseAlarms: string[] = [];
const primaryAA = { entries: 0, runsWithAlarm: 0 };
const found = new Map<string, number>();
const mde = new Map<string, number[]>();
const wall: number[] = [];
for (let i = 1; i <= runs; i++) {
  const aa = run(repo, "aa");
  wall.push(aa.seconds);
  let alarmed = false;
  for (const e of aa.report.benchmarks.filter((b) => b.secondary !== true)) {
    primaryAA.entries++;
    const metric = e.id.split(" ").pop() ?? e.id;
    if (e.mde !== null && e.mde !== undefined) mde.set(metric, [...(mde.get(metric) ?? []), e.mde]);
    if (e.verdict === "regressed" || e.verdict === "improved") {
      falseAlarms.push(`run ${i}: ${e.id} ${e.verdict} ${((e.change ?? 0) * 100).toFixed(1)} %`);
      alarmed = true;
    }
  }
  if (alarmed) primaryAA.runsWithAlarm++;
  const slow = run(repo, "slow");
  wall.push(slow.seconds);
  for (const e of slow.report.benchmarks.filter((b) => b.secondary !== true))
    if (e.verdict === "regressed") found.set(e.id, (found.get(e.id) ?? 0) + 1);
  process.stderr.write(
    `run ${i}/${runs}: A/A ${aa.report.verdict} (${aa.seconds.toFixed(0)} s), +${delayMs} ms ${slow.report.verdict} (${slow.seconds.toFixed(0)} s)\n`,
  );
}
writeResult("load-suite", {
  command: `node bench/load-suite.ts --runs ${runs} --rounds ${rounds} --delay-ms ${delayMs} --duration ${duration}`,
  runs,
  rounds,
  aa_primary_entries: primaryAA.entries,
  aa_runs_with_a_false_alarm: `${primaryAA.runsWithAlarm} of ${runs}`,
  false_alarm_list: falseAlarms,
  [`plus_${delayMs}ms_found_regressed`]: Object.fromEntries(
    [...found].map(([id, n]) => [id, `${n} of ${runs}`]),
  ),
  median_mde_by_metric_aa: Object.fromEntries([...mde].map(([metric, xs]) => [metric, median(xs)])),
  wall_seconds_per_run: median(wall),
});
