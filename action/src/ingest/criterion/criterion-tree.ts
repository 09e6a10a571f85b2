// Reads a Criterion output tree into summary Benchmarks keyed by `full_id` (docs/formats.md,
// "Criterion": directory names are sanitized, truncated and de-duplicated, so a path is never an
// id): one baseline (`--baseline NAME`, what `benchgate run` reads after each side and round), or
// every baseline a glob matches (`--baselines 'base-*'`) in one walk of the tree. Both go through
// the same walk (./criterion-walk.ts) and the same reads; one baseline is the one-name case.
// Every file read is capped in bytes before it is parsed, the total is capped too, and two
// directories claiming one id within a baseline are an error rather than a silent overwrite.
import type { FileReader } from "../../ports/files.ts";
import { mapConcurrent } from "../map-concurrent.ts";
import { InputError } from "../../errors.ts";
import type { BenchSummary, Benchmark } from "../../schemas/summary.gen.ts";
import { criterionBenchmark } from "./criterion.ts";
import { MiB, joinPath, parseUntrustedJson } from "../read-json.ts";
import { baselineGlob, exactBaseline, type BaselinePattern } from "./baseline-pattern.ts";
import {
  IO_CONCURRENCY,
  findCriterionHome,
  walkCriterionTree,
  type FoundBaseline,
  type WalkLimits,
} from "./criterion-walk.ts";

interface CriterionTreeOptions {
  /** The baseline directory to read (`--save-baseline NAME`; `new` = whatever ran last). */
  readonly baseline: string;
  /** Suite name for every benchmark; default "criterion". */
  readonly suite?: string;
  readonly side: string;
  readonly round: number;
}

interface CriterionTreeLimits extends WalkLimits {
  /** Benchmarks of one baseline. */
  readonly maxBenchmarks: number;
  readonly maxBytes: {
    readonly benchmark: number;
    readonly estimates: number;
    readonly sample: number;
  };
  /** Bytes read over all files (of every baseline read in the walk). */
  readonly maxTotalBytes: number;
}

export const CRITERION_TREE_LIMITS: CriterionTreeLimits = Object.freeze({
  maxGroupDepth: 3,
  maxEntries: 200_000,
  maxBenchmarks: 20_000,
  maxBytes: Object.freeze({ benchmark: 1 * MiB, estimates: 1 * MiB, sample: 16 * MiB }),
  maxTotalBytes: 512 * MiB,
});

/** Every baseline's name under `home`, for the error when none is the one asked for. */
async function baselineNames(
  home: string,
  reader: FileReader,
  limits: CriterionTreeLimits,
): Promise<string[]> {
  const all = await walkCriterionTree(home, baselineGlob("*"), reader, limits);
  return [...new Set(all.map((f) => f.baseline))].sort();
}

/** Reads one benchmark directory's baseline: its three files, capped, parsed, mapped. */
function benchmarkReader(
  home: string,
  suite: string,
  reader: FileReader,
  limits: CriterionTreeLimits,
): (found: FoundBaseline) => Promise<Benchmark> {
  let totalBytes = 0;
  const read = async (path: string, maxBytes: number): Promise<unknown> => {
    const text = await reader.readText(path, maxBytes);
    totalBytes += text.length;
    if (totalBytes > limits.maxTotalBytes) {
      throw new InputError(
        `Criterion tree holds more than ${limits.maxTotalBytes} bytes of results`,
        { source: home },
      );
    }
    return parseUntrustedJson(text, path, maxBytes);
  };
  return async ({ dir, baseline }) => {
    const baseDir = joinPath(dir, baseline);
    const sources = {
      benchmark: joinPath(baseDir, "benchmark.json"),
      estimates: joinPath(baseDir, "estimates.json"),
      sample: joinPath(baseDir, "sample.json"),
    };
    const [benchmark, estimates, sample] = await Promise.all([
      read(sources.benchmark, limits.maxBytes.benchmark),
      read(sources.estimates, limits.maxBytes.estimates),
      read(sources.sample, limits.maxBytes.sample),
    ]);
    return criterionBenchmark({ benchmark, estimates, sample }, sources, { suite, baseline });
  };
}

/**
 * Every benchmark of every baseline the pattern matches, read in one walk of the tree (not yet
 * schema-validated; `ingest` does that): baseline name → benchmarks sorted by id, baselines in
 * name order. Fails when no benchmark has a matching baseline, naming the baselines that exist,
 * and when two directories claim the same `full_id` in one baseline.
 */
export async function readCriterionBaselines(
  dir: string,
  pattern: BaselinePattern,
  options: { readonly suite?: string },
  reader: FileReader,
  limits: CriterionTreeLimits = CRITERION_TREE_LIMITS,
): Promise<Map<string, Benchmark[]>> {
  const home = await findCriterionHome(dir, reader);
  const found = await walkCriterionTree(home, pattern, reader, limits);
  if (found.length === 0) {
    const names = await baselineNames(home, reader, limits);
    const asked =
      pattern.exact === undefined
        ? `no baseline matches ${JSON.stringify(pattern.text)}`
        : `no benchmark has baseline ${JSON.stringify(pattern.text)}`;
    const message =
      names.length === 0
        ? `no Criterion benchmarks found (no <benchmark>/<baseline>/benchmark.json within ${limits.maxGroupDepth} levels)`
        : `${asked} (found: ${names.join(", ")})`;
    throw new InputError(message, { source: home });
  }
  const counts = new Map<string, number>();
  for (const { baseline } of found) {
    const count = (counts.get(baseline) ?? 0) + 1;
    if (count > limits.maxBenchmarks) {
      throw new InputError(`more than ${limits.maxBenchmarks} benchmarks in baseline ${baseline}`, {
        source: home,
      });
    }
    counts.set(baseline, count);
  }

  // Read concurrently, then check in the walk's order so errors and ids stay deterministic.
  const read = benchmarkReader(home, options.suite ?? "criterion", reader, limits);
  const loaded = await mapConcurrent(found, IO_CONCURRENCY, read);
  const byBaseline = new Map<string, { byId: Map<string, string>; benchmarks: Benchmark[] }>();
  for (const [i, { dir: benchDir, baseline }] of found.entries()) {
    const benchmark = loaded[i] as Benchmark;
    let seen = byBaseline.get(baseline);
    if (seen === undefined) {
      seen = { byId: new Map(), benchmarks: [] };
      byBaseline.set(baseline, seen);
    }
    const first = seen.byId.get(benchmark.id);
    if (first !== undefined) {
      throw new InputError(
        `duplicate benchmark id ${JSON.stringify(benchmark.id)}: claimed by ${JSON.stringify(first)} and ${JSON.stringify(benchDir)}`,
        { source: joinPath(joinPath(benchDir, baseline), "benchmark.json"), jsonPath: "/full_id" },
      );
    }
    seen.byId.set(benchmark.id, benchDir);
    seen.benchmarks.push(benchmark);
  }
  const result = new Map<string, Benchmark[]>();
  for (const name of [...byBaseline.keys()].sort()) {
    const { benchmarks } = byBaseline.get(name) as { benchmarks: Benchmark[] };
    benchmarks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    result.set(name, benchmarks);
  }
  return result;
}

/**
 * Reads every benchmark of one baseline into a summary (not yet schema-validated; `ingest` does
 * that): the one-name case of readCriterionBaselines.
 */
export async function ingestCriterionTree(
  dir: string,
  options: CriterionTreeOptions,
  reader: FileReader,
  limits: CriterionTreeLimits = CRITERION_TREE_LIMITS,
): Promise<BenchSummary> {
  const pattern = exactBaseline(options.baseline);
  const read = await readCriterionBaselines(dir, pattern, options, reader, limits);
  const benchmarks = read.get(options.baseline) ?? [];
  return { schema_version: 1, side: options.side, round: options.round, benchmarks };
}
