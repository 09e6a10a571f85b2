// `npm run bench`: every benchmark of benchgate itself, in sequence (each prints its result and
// keeps it in bench/results/). Figures quoted in docs/PERFORMANCE.md come from these scripts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./support.ts";

const node = process.execPath;
const steps: [string, string[]][] = [
  ["bundle", ["scripts/build.ts"]],
  ["analysis time (1,000 × 5 × 2 × 100)", ["bench/analysis-time.ts"]],
  [
    "ingest + compare of a 1,000 × 10-baseline Criterion tree next to critcmp",
    ["bench/criterion-tree-ingest.ts"],
  ],
  [
    "detection quality on recorded A/A suites, with the stress cases",
    ["bench/detection-quality.ts"],
  ],
  ["sequential rounds replayed on the 15-round A/A suites", ["bench/sequential-replay.ts"]],
  [
    "the median of many rounds against the mean, processes landing 2x slow (about 1 minute)",
    ["bench/robust-rounds.ts"],
  ],
  ["wall time against a CPU clock, A/A under hyperfine (about 2 minutes)", ["bench/cpu-clock.ts"]],
  [
    "one run per side: noise from the history and base-head-base, on the recorded runs",
    ["bench/one-run-noise.ts"],
  ],
  ["benchgate run overhead on the demo (about 2 minutes)", ["bench/run-overhead.ts"]],
  ["history page, 200 benchmarks × 1,000 commits, headless Chromium", ["bench/history-page.ts"]],
  ["the PR comment on real reports: visible lines, bytes, red markers", ["bench/comment-size.ts"]],
  [
    "instruction counts: 20 A/A runs of the demo's count suites, +1 % injected (about 15 minutes)",
    ["bench/instruction-counts.ts"],
  ],
  [
    "load suites: 10 A/A runs of the demo server under oha, 10 with +5 ms per request (about 8 minutes)",
    ["bench/load-suite.ts"],
  ],
];
for (const suite of readdirSync(path.join(ROOT, "bench/data")).filter((d) => d.startsWith("aa-"))) {
  if (existsSync(path.join(ROOT, "bench/data", suite, "rounds.json"))) {
    steps.push([`wall time vs critcmp (${suite})`, ["bench/wall-time.ts", "--suite", suite]]);
  }
}
for (const [title, args] of steps) {
  process.stderr.write(`\n== ${title}: node ${args.join(" ")}\n`);
  const r = spawnSync(node, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    process.stderr.write(`== ${title} failed (exit ${String(r.status)})\n`);
    process.exit(1);
  }
}
