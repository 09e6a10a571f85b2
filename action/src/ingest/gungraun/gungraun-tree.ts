// Walks the folder a gungraun or iai-callgrind run writes (`target/gungraun`, `target/iai`;
// `<package>/<bench file>/<group>/<function>.<id>/summary.json`) and reads every `summary.json`
// in it (./gungraun-summary.ts). The tree was written by the benchmarked code's build: the walk
// is bounded in depth, entries, files and bytes. Nothing is skipped: a bound that is reached is an
// error, never a part of the tree left unread, and symlinks are never followed: the harnesses
// write none, so a symlink (or a FIFO, socket or device) anywhere the walk looks is an error
// naming it; skipping one would drop a benchmark from the gate without a word. The same holds
// for a folder deeper than the depth bound: it is refused, naming it, not left unlisted.
// The FileReader reports a symlink as "other", like a FIFO or a device.
import { InputError } from "../../errors.ts";
import type { FileReader } from "../../ports/files.ts";
import type { Benchmark } from "../../schemas/summary.gen.ts";
import type { FormatRead } from "../format-kind.ts";
import { mapConcurrent } from "../map-concurrent.ts";
import { MiB, joinPath, parseUntrustedJson } from "../read-json.ts";
import { SUMMARY_VERSIONS, parseGungraunSummary } from "./gungraun-summary.ts";

interface GungraunTreeLimits {
  /**
   * Directory levels below the folder given that are listed (the harness's layout uses 4); a
   * folder below them is an error.
   */
  readonly maxDepth: number;
  /** Directory entries listed in total before the walk gives up. */
  readonly maxEntries: number;
  readonly maxSummaries: number;
  /** Entries in the result: the summary schema's maxItems. */
  readonly maxBenchmarks: number;
  readonly maxSummaryBytes: number;
  /** Bytes read over all files. */
  readonly maxTotalBytes: number;
}

export const GUNGRAUN_TREE_LIMITS: GungraunTreeLimits = Object.freeze({
  maxDepth: 12,
  // A benchmark folder holds its summary, logs, profiles, their .old copies and flame graphs.
  maxEntries: 500_000,
  maxSummaries: 20_000,
  maxBenchmarks: 20_000,
  // One summary of one benchmark is a few KB; thousands of threads or subprocesses (one part
  // each) stay well under this.
  maxSummaryBytes: 16 * MiB,
  maxTotalBytes: 512 * MiB,
});

const FILE_NAME = "summary.json";
/** File operations in flight at once: enough to hide I/O latency, few enough to stay polite. */
const IO_CONCURRENCY = 16;

const EXPECTED =
  "expected the folder gungraun (target/gungraun) or iai-callgrind (target/iai) writes; " +
  "run the benchmarks with --save-summary=json (or GUNGRAUN_SAVE_SUMMARY=json, IAI_CALLGRIND_SAVE_SUMMARY=json)";

function notFileOrDir(path: string): InputError {
  return new InputError(
    "is a symbolic link or special file; a gungraun folder must hold only regular files and directories",
    { source: path },
  );
}

/** Every summary.json of the tree, in a deterministic (sorted, breadth-first) order. */
export async function findSummaries(
  home: string,
  reader: FileReader,
  limits: GungraunTreeLimits,
): Promise<string[]> {
  const kind = await reader.kindOf(home);
  if (kind === "other") throw notFileOrDir(home);
  if (kind !== "dir") {
    const problem = kind === undefined ? "directory not found" : "not a directory";
    throw new InputError(`${problem}; ${EXPECTED}`, { source: home });
  }
  const found: string[] = [];
  let entries = 0;
  const queue: { dir: string; depth: number }[] = [{ dir: home, depth: 0 }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const listing = await reader.list(next.dir);
    entries += listing.length;
    if (entries > limits.maxEntries)
      throw new InputError(`more than ${limits.maxEntries} entries; refusing to walk the folder`, {
        source: home,
      });
    for (const entry of listing) {
      const path = joinPath(next.dir, entry.name);
      if (entry.kind === "other") throw notFileOrDir(path);
      if (entry.kind === "dir") {
        // A folder the walk would not list could hold summaries: refuse, never drop them.
        if (next.depth >= limits.maxDepth)
          throw new InputError(
            `a folder more than ${limits.maxDepth} levels below ${home}, which the walk does not read; ` +
              "gungraun and iai-callgrind write 4 (<package>/<bench file>/<group>/<function>.<id>), " +
              "so something else was written into their folder",
            { source: path },
          );
        queue.push({ dir: path, depth: next.depth + 1 });
      }
      if (entry.kind === "file" && entry.name === FILE_NAME) {
        found.push(path);
        if (found.length > limits.maxSummaries)
          throw new InputError(`more than ${limits.maxSummaries} ${FILE_NAME} files`, {
            source: home,
          });
      }
    }
  }
  return found;
}

/** "gungraun summary v7": `generator.tool_version`. */
function toolVersion(version: string): string {
  return `${SUMMARY_VERSIONS.get(version) ?? "gungraun"} summary v${version}`;
}

/**
 * Reads every summary.json under `home` into benchmarks (not yet schema-validated; `ingest`
 * does that). Fails when there is none, when files of two summary versions are mixed, when two
 * files give one id, and when there are more entries than a summary holds.
 */
export async function readGungraunTree(
  home: string,
  options: { readonly suite?: string },
  reader: FileReader,
  limits: GungraunTreeLimits = GUNGRAUN_TREE_LIMITS,
): Promise<FormatRead> {
  const files = await findSummaries(home, reader, limits);
  if (files.length === 0)
    throw new InputError(`no ${FILE_NAME} found; ${EXPECTED}`, {
      source: home,
    });
  const suite = options.suite ?? "gungraun";
  let totalBytes = 0;
  // Read concurrently, then check in the walk's order so errors and ids stay deterministic.
  const parsed = await mapConcurrent(files, IO_CONCURRENCY, async (file) => {
    const text = await reader.readText(file, limits.maxSummaryBytes);
    totalBytes += text.length;
    if (totalBytes > limits.maxTotalBytes)
      throw new InputError(`the ${FILE_NAME} files hold more than ${limits.maxTotalBytes} bytes`, {
        source: home,
      });
    const data = parseUntrustedJson(text, file, limits.maxSummaryBytes);
    return { file, summary: parseGungraunSummary(data, file, suite) };
  });

  const first = parsed[0];
  const byId = new Map<string, string>();
  const benchmarks: Benchmark[] = [];
  for (const { file, summary } of parsed) {
    if (first !== undefined && summary.version !== first.summary.version)
      throw new InputError(
        `summary version ${summary.version}, but ${first.file} has version ${first.summary.version}; ` +
          "one folder holds the summaries of one harness version",
        { source: file, jsonPath: "/version" },
      );
    for (const benchmark of summary.benchmarks) {
      const other = byId.get(benchmark.id);
      if (other !== undefined)
        throw new InputError(
          `duplicate benchmark id ${JSON.stringify(benchmark.id)}: also given by ${other} ` +
            "(two runs' folders, or two packages with the same bench file, group and function? ingest each on its own)",
          { source: file, jsonPath: "/module_path" },
        );
      byId.set(benchmark.id, file);
      benchmarks.push(benchmark);
    }
    if (benchmarks.length > limits.maxBenchmarks)
      throw new InputError(
        `more than ${limits.maxBenchmarks} entries (instructions and the secondary counts of every benchmark)`,
        { source: home },
      );
  }
  return first === undefined
    ? { benchmarks }
    : { benchmarks, toolVersion: toolVersion(first.summary.version) };
}
