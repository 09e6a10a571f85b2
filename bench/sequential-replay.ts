// Sequential rounds (`rounds: auto`) replayed on recorded A/A suites with many rounds, next to
// fixed designs on the same data. A sequential run measures in round r only the benchmarks the
// rule left open after round r − 1; compare on summaries that declare the design replays those
// looks and ignores every round of a benchmark after it settled, so giving it all recorded
// rounds yields exactly what a sequential run on this machine would have measured and decided.
// Benchmark-runs spent = Σ over benchmarks of the rounds it got.
// Usage: node bench/sequential-replay.ts [--suite NAME] [--min 3] [--max 15] [--masks 64]
//   [--subsets 20]
import path from "node:path";
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import type { SourcedSummary } from "../action/src/core/pairing.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import { rng } from "../action/test/support/synthetic.ts";
import {
  aaSuites,
  declareSequential,
  gateFailure,
  mapBenchmarks,
  scaleBenchmark,
  shockRound,
  swapped,
  type AaSuite,
} from "./aa-data.ts";
import { ROOT, median, option, writeResult } from "./support.ts";

const settings = resolveSettings();

const fails = (r: BenchReport): boolean => gateFailure(r).gate;

function runsSpent(r: BenchReport): number {
  return r.benchmarks.reduce((s, e) => s + (e.stopped?.after_round ?? e.rounds), 0);
}

interface Design {
  readonly label: string;
  readonly run: (base: SourcedSummary[], head: SourcedSummary[]) => BenchReport;
}

function designs(min: number, max: number): Design[] {
  const fixed = (k: number): Design => ({
    label: `fixed k=${k}`,
    run: (b, h) => compare(b.slice(0, k), h.slice(0, k), { settings }),
  });
  return [
    fixed(5),
    fixed(10),
    {
      label: `auto ${min}..${max}`,
      run: (b, h) =>
        compare(
          declareSequential(b.slice(0, max), min, max),
          declareSequential(h.slice(0, max), min, max),
          {
            settings,
          },
        ),
    },
  ];
}

function evaluate(suite: AaSuite, min: number, max: number, masks: number, subsets: number) {
  const rounds = Array.from({ length: max }, (_, i) => i);
  const random = rng(4242);
  // Mask 0 is the data as recorded; the others are random label swaps (other run orders).
  const maskList = [
    0,
    ...Array.from({ length: masks - 1 }, () => Math.floor(random() * (1 << max))),
  ];
  const out: Record<string, unknown> = {};
  for (const d of designs(min, max)) {
    const aa = { comparisons: 0, failures: 0, shockComparisons: 0, shockFailures: 0 };
    const spent: number[] = [];
    const stops: Record<string, number> = {};
    let recorded: boolean | undefined;
    for (const mask of maskList) {
      const data = swapped(suite, rounds, mask);
      const report = d.run(data.base, data.head);
      if (mask === 0) recorded = fails(report);
      aa.comparisons++;
      if (fails(report)) aa.failures++;
      spent.push(runsSpent(report));
      for (const e of report.benchmarks) {
        const reason = e.stopped?.reason ?? "fixed";
        stops[reason] = (stops[reason] ?? 0) + 1;
      }
      // A shared round shock (×1.10 for every benchmark of one head round) in a random round
      // among the first min rounds, where every benchmark runs.
      const at = Math.floor(random() * min);
      const shocked = d.run(data.base, shockRound(data.head, at, 1.1));
      aa.shockComparisons++;
      if (fails(shocked)) aa.shockFailures++;
    }
    const detection: Record<string, unknown> = {};
    for (const factor of [1.25, 1.5, 2]) {
      const pick = rng(12345);
      let injected = 0;
      let detected = 0;
      let falseFlags = 0;
      const spentInjected: number[] = [];
      for (let s = 0; s < subsets; s++) {
        const chosen = new Set(suite.ids.filter(() => pick() < 0.2));
        const data = swapped(suite, rounds, 0);
        const head = data.head.map((h) =>
          mapBenchmarks(h, (b) => (chosen.has(b.id) ? scaleBenchmark(b, factor) : b)),
        );
        const report = d.run(data.base, head);
        spentInjected.push(runsSpent(report));
        for (const e of report.benchmarks) {
          if (chosen.has(e.id)) {
            injected++;
            if (e.verdict === "regressed") detected++;
          } else if (e.verdict === "regressed") falseFlags++;
        }
      }
      detection[`x${factor}`] = {
        detected: detected / injected,
        injected,
        false_flags: falseFlags,
        median_runs: median(spentInjected),
      };
    }
    out[d.label] = {
      aa_recorded_fails: recorded,
      aa_failure_share: aa.failures / aa.comparisons,
      aa_comparisons: aa.comparisons,
      aa_shock_failure_share: aa.shockFailures / aa.shockComparisons,
      median_benchmark_runs: median(spent),
      stops,
      detection,
    };
    process.stderr.write(`${suite.name} ${d.label}: ${JSON.stringify(out[d.label])}\n`);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = option("suite", "");
  const min = Number(option("min", "3"));
  const maxWanted = Number(option("max", "15"));
  const masks = Number(option("masks", "64"));
  const subsets = Number(option("subsets", "20"));
  const results: Record<string, unknown> = {};
  for await (const suite of aaSuites(path.join(ROOT, "bench/data"), only)) {
    if (suite.rounds < 10) continue;
    const name = suite.name;
    const max = Math.min(maxWanted, suite.rounds);
    results[name] = {
      benchmarks: suite.ids.length,
      rounds: suite.rounds,
      design: { min, max },
      ...evaluate(suite, min, max, masks, subsets),
    };
  }
  writeResult("sequential-replay", results);
}
