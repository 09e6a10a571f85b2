// Walks a Criterion output tree (`target/criterion`, or a folder containing it) and turns every
// `<benchmark dir>/<baseline>/benchmark.json` into a summary Benchmark keyed by `full_id`
// (docs/formats.md, "Criterion": directory names are sanitized, truncated and de-duplicated,
// so a path is never an id). The tree was written by untrusted code: the walk is bounded in
// depth, entries and bytes, and two directories claiming one id is an error rather than a
// silent overwrite. Symlinks are never followed, and never skipped either: Criterion writes
// none, so one anywhere the walk looks (a group, benchmark or baseline directory,
// benchmark.json, the files read, target/ or criterion/ on the way to the tree) is an error
// naming it. Skipping one would drop a benchmark from the gate without a word. The FileReader
// reports a symlink as "other", like a FIFO or a device, so those are refused the same way.
import type { FileReader } from "../../ports/files.ts";
import { mapConcurrent } from "../map-concurrent.ts";
import { InputError } from "../../errors.ts";
import type { BenchSummary, Benchmark } from "../../schemas/summary.gen.ts";
import { criterionBenchmark } from "./criterion.ts";
import { MiB, baseName, joinPath, parseUntrustedJson } from "../read-json.ts";

export interface CriterionTreeOptions {
  /** The baseline directory to read (`--save-baseline NAME`; `new` = whatever ran last). */
  readonly baseline: string;
  /** Suite name for every benchmark; default "criterion". */
  readonly suite?: string;
  readonly side: string;
  readonly round: number;
}

export interface CriterionTreeLimits {
  /** Group levels below the Criterion home: group[/function][/value] = 3. */
  readonly maxGroupDepth: number;
  /** Directory entries listed in total before the walk gives up. */
  readonly maxEntries: number;
  readonly maxBenchmarks: number;
  readonly maxBytes: {
    readonly benchmark: number;
    readonly estimates: number;
    readonly sample: number;
  };
  /** Bytes read over all files. */
  readonly maxTotalBytes: number;
}

export const CRITERION_TREE_LIMITS: CriterionTreeLimits = Object.freeze({
  maxGroupDepth: 3,
  maxEntries: 200_000,
  maxBenchmarks: 20_000,
  maxBytes: Object.freeze({ benchmark: 1 * MiB, estimates: 1 * MiB, sample: 16 * MiB }),
  maxTotalBytes: 512 * MiB,
});

/** Directories inside a benchmark directory that are never baselines. */
const NOT_BASELINES: ReadonlySet<string> = new Set(["report", "change"]);
/** File operations in flight at once: enough to hide I/O latency, few enough to stay polite. */
const IO_CONCURRENCY = 16;

function checkBaselineName(baseline: string): void {
  if (
    baseline === "" ||
    baseline.length > 255 ||
    baseline === "." ||
    baseline === ".." ||
    /[/\\\0]/.test(baseline) ||
    NOT_BASELINES.has(baseline)
  ) {
    throw new InputError(`invalid Criterion baseline name ${JSON.stringify(baseline)}`);
  }
}

/**
 * The Criterion home for `dir`: `dir/target/criterion` (a project root), `dir/criterion` when
 * `dir` looks like a cargo target directory, else `dir` itself.
 */
export async function findCriterionHome(dir: string, reader: FileReader): Promise<string> {
  const kind = await kindInTree(dir, reader);
  if (kind !== "dir") {
    throw new InputError(kind === undefined ? "Criterion directory not found" : "not a directory", {
      source: dir,
    });
  }
  // target/ is checked on its own: a lookup of target/criterion would go through a symlinked
  // target/ (only the last part of a path is never followed).
  const target = joinPath(dir, "target");
  const nested = joinPath(target, "criterion");
  if ((await kindInTree(target, reader)) === "dir" && (await kindInTree(nested, reader)) === "dir")
    return nested;
  const inTarget = joinPath(dir, "criterion");
  if ((await kindInTree(inTarget, reader)) === "dir") {
    const looksLikeTarget =
      baseName(dir) === "target" ||
      (await reader.kindOf(joinPath(dir, "CACHEDIR.TAG"))) === "file" ||
      (await reader.kindOf(joinPath(dir, "release"))) === "dir" ||
      (await reader.kindOf(joinPath(dir, "debug"))) === "dir";
    if (looksLikeTarget) return inTarget;
  }
  return dir;
}

/** A symlink or special file where the walk looks: refused, naming it (see the top of the file). */
function notFileOrDir(path: string): InputError {
  return new InputError(
    "is a symbolic link or special file; a Criterion tree must hold only regular files and directories",
    { source: path },
  );
}

/** The kind at `path`, refusing a symlink or special file instead of passing over it. */
async function kindInTree(path: string, reader: FileReader): Promise<"file" | "dir" | undefined> {
  const kind = await reader.kindOf(path);
  if (kind === "other") throw notFileOrDir(path);
  return kind;
}

interface Found {
  /** The benchmark directory (parent of the baseline directory). */
  readonly dir: string;
}

/** Finds every benchmark directory holding `<baseline>/benchmark.json`, and all baseline names. */
async function walk(
  home: string,
  baseline: string,
  reader: FileReader,
  limits: CriterionTreeLimits,
): Promise<{ found: Found[]; baselines: Set<string> }> {
  const found: Found[] = [];
  const baselines = new Set<string>();
  let entries = 0;
  // Breadth-first over sorted listings: deterministic order, bounded depth.
  const queue: { dir: string; depth: number }[] = [{ dir: home, depth: 0 }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const listing = await reader.list(next.dir);
    entries += listing.length;
    if (entries > limits.maxEntries) {
      throw new InputError(
        `Criterion tree has more than ${limits.maxEntries} entries; refusing to walk it`,
        {
          source: home,
        },
      );
    }
    // Checked before report/ and change/ are set aside: the rule has no exceptions to explain.
    const odd = listing.find((e) => e.kind === "other");
    if (odd !== undefined) throw notFileOrDir(joinPath(next.dir, odd.name));
    const dirs = listing.filter((e) => e.kind === "dir" && !NOT_BASELINES.has(e.name));
    // A child of a benchmark directory holding benchmark.json is a baseline directory.
    const isBaseline = await mapConcurrent(dirs, IO_CONCURRENCY, async (entry) =>
      next.depth >= 1
        ? (await kindInTree(joinPath(joinPath(next.dir, entry.name), "benchmark.json"), reader)) ===
          "file"
        : false,
    );
    for (const [i, entry] of dirs.entries()) {
      const sub = joinPath(next.dir, entry.name);
      if (isBaseline[i] === true) {
        baselines.add(entry.name);
        if (entry.name === baseline) {
          found.push({ dir: next.dir });
          if (found.length > limits.maxBenchmarks) {
            throw new InputError(`more than ${limits.maxBenchmarks} benchmarks`, { source: home });
          }
        }
        continue;
      }
      if (next.depth < limits.maxGroupDepth) queue.push({ dir: sub, depth: next.depth + 1 });
    }
  }
  return { found, baselines };
}

/**
 * Reads every benchmark of one baseline from a Criterion tree into a summary (not yet
 * schema-validated; `ingest` does that). Fails when no benchmark has the baseline, naming the
 * baselines that exist, and when two directories claim the same `full_id`.
 */
export async function ingestCriterionTree(
  dir: string,
  options: CriterionTreeOptions,
  reader: FileReader,
  limits: CriterionTreeLimits = CRITERION_TREE_LIMITS,
): Promise<BenchSummary> {
  checkBaselineName(options.baseline);
  const home = await findCriterionHome(dir, reader);
  const { found, baselines } = await walk(home, options.baseline, reader, limits);
  if (found.length === 0) {
    const names = [...baselines].sort();
    const message =
      names.length === 0
        ? `no Criterion benchmarks found (no <benchmark>/<baseline>/benchmark.json within ${limits.maxGroupDepth} levels)`
        : `no benchmark has baseline ${JSON.stringify(options.baseline)} (found: ${names.join(", ")})`;
    throw new InputError(message, { source: home });
  }

  const suite = options.suite ?? "criterion";
  const byId = new Map<string, string>();
  const benchmarks: Benchmark[] = [];
  let totalBytes = 0;
  // Read concurrently, then check in the walk's order so errors and ids stay deterministic.
  const loaded = await mapConcurrent(found, IO_CONCURRENCY, async ({ dir: benchDir }) => {
    const baseDir = joinPath(benchDir, options.baseline);
    const sources = {
      benchmark: joinPath(baseDir, "benchmark.json"),
      estimates: joinPath(baseDir, "estimates.json"),
      sample: joinPath(baseDir, "sample.json"),
    };
    const read = async (path: string, maxBytes: number): Promise<unknown> => {
      const text = await reader.readText(path, maxBytes);
      totalBytes += text.length;
      if (totalBytes > limits.maxTotalBytes) {
        throw new InputError(
          `Criterion tree holds more than ${limits.maxTotalBytes} bytes of results`,
          {
            source: home,
          },
        );
      }
      return parseUntrustedJson(text, path, maxBytes);
    };
    const [benchmarkDoc, estimates, sample] = await Promise.all([
      read(sources.benchmark, limits.maxBytes.benchmark),
      read(sources.estimates, limits.maxBytes.estimates),
      read(sources.sample, limits.maxBytes.sample),
    ]);
    const docs = { benchmark: benchmarkDoc, estimates, sample };
    return {
      benchDir,
      sources,
      benchmark: criterionBenchmark(docs, sources, { suite, baseline: options.baseline }),
    };
  });
  for (const { benchDir, sources, benchmark } of loaded) {
    const first = byId.get(benchmark.id);
    if (first !== undefined) {
      throw new InputError(
        `duplicate benchmark id ${JSON.stringify(benchmark.id)}: claimed by ${JSON.stringify(first)} and ${JSON.stringify(benchDir)}`,
        { source: sources.benchmark, jsonPath: "/full_id" },
      );
    }
    byId.set(benchmark.id, benchDir);
    benchmarks.push(benchmark);
  }
  benchmarks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { schema_version: 1, side: options.side, round: options.round, benchmarks };
}
