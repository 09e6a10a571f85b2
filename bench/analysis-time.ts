// Analysis time on a large synthetic suite: 1,000 benchmarks × 5 rounds × 2 sides × 100 samples.
// Measures the pure compare() in-process and the whole CLI (read, validate, compare, render,
// write) with hyperfine. Usage: node bench/analysis-time.ts [--benchmarks N] [--runs N]
import { mkdtempSync, rmSync, writeFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { syntheticSuite } from "../action/test/support/synthetic.ts";
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import { readSummaryFile } from "../action/src/ingest/read-document.ts";
import { nodeFileReader } from "../action/src/io/node-files.ts";
import { detectSmells } from "../action/src/smells/detect-smells.ts";
import { estimateHistoryNoise } from "../action/src/history/estimate-history-noise.ts";
import { singleRunHistory } from "../action/test/support/single-run-history.ts";
import { declareSequential } from "./aa-data.ts";
import { ROOT, median, option, writeResult } from "./support.ts";

const benchmarks = Number(option("benchmarks", "1000"));
const runs = Number(option("runs", "10"));
const dir = mkdtempSync(path.join(tmpdir(), "benchgate-analysis-"));
try {
  const suite = syntheticSuite({
    benchmarks,
    rounds: 5,
    samples: 100,
    noise: 0.05,
    seed: 1,
    scale: (i) => (i % 50 === 0 ? 1.5 : 1),
  });
  const files = { base: [] as string[], head: [] as string[] };
  for (const side of ["base", "head"] as const) {
    for (const f of suite[side]) {
      const file = path.join(dir, f.source);
      writeFileSync(file, JSON.stringify(f.summary));
      files[side].push(file);
    }
  }
  const bytes = [...files.base, ...files.head].reduce((n, f) => n + statSync(f).size, 0);
  process.stderr.write(
    `suite: ${benchmarks} benchmarks × 5 rounds × 2 sides × 100 samples, ${(bytes / 1e6).toFixed(1)} MB of summaries\n`,
  );

  const settings = resolveSettings();
  const pureMs: number[] = [];
  const loadMs: number[] = [];
  const smellMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const base = await Promise.all(
      files.base.map(async (source) => ({
        source,
        summary: await readSummaryFile(nodeFileReader, source),
      })),
    );
    const head = await Promise.all(
      files.head.map(async (source) => ({
        source,
        summary: await readSummaryFile(nodeFileReader, source),
      })),
    );
    const t1 = performance.now();
    const report = compare(base, head, { settings });
    const t2 = performance.now();
    detectSmells({ base, head, report });
    const t3 = performance.now();
    loadMs.push(t1 - t0);
    pureMs.push(t2 - t1);
    smellMs.push(t3 - t2);
    if (i === 0)
      process.stderr.write(
        `verdict ${report.verdict}: ${report.counts.regressed} regressed of ${report.counts.total}\n`,
      );
  }

  const cli = path.join(ROOT, "dist/benchgate.js");
  const command = `node ${cli} compare --base ${files.base.join(" ")} --head ${files.head.join(" ")} --json ${dir}/report.json --markdown ${dir}/comment.md --quiet`;
  const exported = path.join(dir, "hyperfine.json");
  const hf = spawnSync(
    "hyperfine",
    ["--warmup", "1", "--runs", String(runs), "-i", "--export-json", exported, "-N", command],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env["PATH"] ?? ""}`,
      },
    },
  );
  let cliMedian: number | undefined;
  if (hf.status === 0) {
    const { results } = JSON.parse((await import("node:fs")).readFileSync(exported, "utf8")) as {
      results: { median: number }[];
    };
    cliMedian = (results[0]?.median ?? Number.NaN) * 1000;
  }
  // Sequential rounds (rounds: auto, 3..15): compare replays every look until nothing is open,
  // and the runner asks for the next round after each one, so a run costs one replay per look.
  // Measured on 15 recorded rounds of every benchmark (compare ignores what a real run would
  // not have measured); `looks` says how many the rule needed on this data.
  const long = syntheticSuite({
    benchmarks,
    rounds: 15,
    samples: 20,
    noise: 0.05,
    noiseSpread: 1.5,
    seed: 2,
    scale: (i) => (i % 50 === 0 ? 1.5 : 1),
  });
  const declared = (fs: typeof long.base) => declareSequential(fs, 3, 15);
  const seqMs: number[] = [];
  const fixed15Ms: number[] = [];
  let looks = 0;
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const t0 = performance.now();
    const r = compare(declared(long.base), declared(long.head), { settings });
    const t1 = performance.now();
    compare(long.base, long.head, { settings });
    const t2 = performance.now();
    seqMs.push(t1 - t0);
    fixed15Ms.push(t2 - t1);
    looks = Math.max(...r.benchmarks.map((e) => e.stopped?.after_round ?? 0)) - 2;
  }
  // One run per side with the history's noise (docs/statistics.md §14): 30 single-run records of
  // every benchmark, then one base and one head run; the estimate reads the history (change
  // points, windows, variances), compare fits the tails and tests.
  const single = syntheticSuite({ benchmarks, rounds: 31, samples: 20, noise: 0.02, seed: 3 });
  const history = singleRunHistory(single.base.slice(0, 30).map((f) => f.summary));
  const estimateMs: number[] = [];
  const historyCompareMs: number[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const t0 = performance.now();
    const noise = estimateHistoryNoise(history, { fingerprint: undefined });
    const t1 = performance.now();
    compare(single.base.slice(30), single.head.slice(30), { settings, noise });
    const t2 = performance.now();
    estimateMs.push(t1 - t0);
    historyCompareMs.push(t2 - t1);
  }
  const result = {
    one_run_with_history: {
      records: 30,
      estimate_ms_median: median(estimateMs),
      compare_ms_median: median(historyCompareMs),
    },
    sequential_15_rounds: {
      looks,
      compare_ms_median: median(seqMs),
      fixed_15_rounds_compare_ms_median: median(fixed15Ms),
    },
    benchmarks,
    rounds: 5,
    samples: 100,
    summary_bytes: bytes,
    read_and_validate_ms_median: median(loadMs),
    compare_ms_median: median(pureMs),
    compare_ms_min: Math.min(...pureMs),
    smells_ms_median: median(smellMs),
    cli_wall_ms_median: cliMedian ?? null,
    runs,
  };
  writeResult("analysis-time", result);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
