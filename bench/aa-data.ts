// Recorded A/A suites (bench/data/aa-*) as summaries, and the ways to make more A/A data sets
// from them: in an A/A round either side may be called "head", so swapping the labels of any
// set of rounds is another valid A/A comparison with another run order (the timestamps move
// with the files, so the order stays true); a shared round shock multiplies one round of head.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ingestCriterionTree } from "../action/src/ingest/criterion/criterion-tree.ts";
import { nodeFileReader } from "../action/src/io/node-files.ts";
import type { SourcedSummary } from "../action/src/core/pairing.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import type { Benchmark, BenchSummary, Estimate } from "../action/src/schemas/summary.gen.ts";

export interface RoundInfo {
  round: number;
  first: string;
  base: { started_at: string; finished_at: string };
  head: { started_at: string; finished_at: string };
}

export interface AaSuite {
  readonly name: string;
  readonly dir: string;
  readonly rounds: number;
  /** Index r − 1: the summaries of round r. */
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly ids: readonly string[];
}

export async function loadAaSuite(dir: string): Promise<AaSuite | undefined> {
  if (!existsSync(path.join(dir, "criterion")) || !existsSync(path.join(dir, "rounds.json")))
    return undefined;
  const name = path.basename(dir);
  const rounds = JSON.parse(readFileSync(path.join(dir, "rounds.json"), "utf8")) as RoundInfo[];
  const sides = { base: [] as SourcedSummary[], head: [] as SourcedSummary[] };
  for (const r of rounds) {
    for (const side of ["base", "head"] as const) {
      const summary: BenchSummary = await ingestCriterionTree(
        path.join(dir, "criterion"),
        { baseline: `${side}-${r.round}`, side, round: r.round, suite: name },
        nodeFileReader,
      );
      summary.started_at = r[side].started_at;
      summary.finished_at = r[side].finished_at;
      sides[side].push({ source: `${name}/${side}-${r.round}`, summary });
    }
  }
  const ids = (sides.base[0] as SourcedSummary).summary.benchmarks.map((b) => b.id);
  return { name, dir, rounds: rounds.length, ...sides, ids };
}

/** Renumbers a summary as round `round` (subsets of rounds must be numbered 1…k to pair). */
function renumber(s: SourcedSummary, round: number): SourcedSummary {
  return { ...s, summary: { ...s.summary, round } };
}

/**
 * The A/A data set of the chosen rounds (0-based indexes) with the labels of the rounds in
 * `mask` swapped, renumbered 1…k.
 */
export function swapped(
  suite: AaSuite,
  rounds: readonly number[],
  mask: number,
): { base: SourcedSummary[]; head: SourcedSummary[] } {
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  rounds.forEach((r, i) => {
    const swap = ((mask >> i) & 1) === 1;
    const b = swap ? suite.head[r] : suite.base[r];
    const h = swap ? suite.base[r] : suite.head[r];
    base.push(renumber(b as SourcedSummary, i + 1));
    head.push(renumber(h as SourcedSummary, i + 1));
  });
  return { base, head };
}

export function scaleEstimate(e: Estimate | undefined, f: number): Estimate | undefined {
  if (e === undefined) return undefined;
  if (typeof e === "number") return e * f;
  return {
    ...e,
    point: e.point * f,
    ...(e.lower === undefined ? {} : { lower: e.lower * f }),
    ...(e.upper === undefined ? {} : { upper: e.upper * f }),
  };
}

/** Every time-like value of a benchmark × f (std_dev scales too; it is a time). */
export function scaleBenchmark(b: Benchmark, f: number): Benchmark {
  const estimates: Benchmark["estimates"] = {};
  for (const [k, v] of Object.entries(b.estimates)) {
    const scaled = scaleEstimate(v, f);
    if (scaled !== undefined) estimates[k as keyof Benchmark["estimates"]] = scaled;
  }
  return { ...b, samples: (b.samples ?? []).map((x) => x * f), estimates };
}

export function mapBenchmarks(s: SourcedSummary, f: (b: Benchmark) => Benchmark): SourcedSummary {
  return { ...s, summary: { ...s.summary, benchmarks: s.summary.benchmarks.map(f) } };
}

/** A shared round shock: every benchmark of head's round `index` (0-based) × factor. */
export function shockRound(
  head: readonly SourcedSummary[],
  index: number,
  factor: number,
): SourcedSummary[] {
  return head.map((s, i) => (i === index ? mapBenchmarks(s, (b) => scaleBenchmark(b, factor)) : s));
}

/** All k-subsets of 0…n−1 (lexicographic). */
export function subsets(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, acc: number[]): void => {
    if (acc.length === k) {
      out.push(acc);
      return;
    }
    for (let i = start; i < n; i++) pick(i + 1, [...acc, i]);
  };
  pick(0, []);
  return out;
}

/** Every recorded suite under `dataDir` (`aa-*` with rounds), or only the one named `only`. */
export async function* aaSuites(dataDir: string, only: string): AsyncGenerator<AaSuite> {
  for (const name of readdirSync(dataDir).filter((d) => d.startsWith("aa-"))) {
    if (only !== "" && name !== only) continue;
    const suite = await loadAaSuite(path.join(dataDir, name));
    if (suite !== undefined) yield suite;
  }
}

/** Whether a report fails the gate on the statistics: a regressed benchmark or suite shift. */
export function gateFailure(report: BenchReport): { gate: boolean; shift: boolean } {
  const shift = (report.suites ?? []).some((s) => s.shift?.verdict === "regressed");
  return { gate: report.counts.regressed > 0 || shift, shift };
}

/** The same summaries as written by a `rounds: auto` run with this design. */
export function declareSequential(
  files: readonly SourcedSummary[],
  min: number,
  max: number,
): SourcedSummary[] {
  return files.map((f) => ({
    ...f,
    summary: { ...f.summary, sequential: { min_rounds: min, max_rounds: max } },
  }));
}
