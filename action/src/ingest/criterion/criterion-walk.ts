// The one walk of a Criterion output tree (`target/criterion`, or a folder containing it): it
// finds every `<benchmark dir>/<baseline>/benchmark.json` whose baseline the pattern asks for,
// for one baseline or for all of a run's baselines at once. The tree was written by untrusted
// code: the walk is bounded in depth and entries, and symlinks are never followed, and never
// skipped either: Criterion writes none, so one anywhere the walk looks (in any directory listing
// down to the deepest group level — every group, benchmark and baseline directory, whichever
// baseline —, a benchmark.json it checks, target/ or criterion/ on the way to the tree) is an
// error naming it. Skipping one would drop a benchmark from the gate without a word. The
// FileReader reports a symlink as "other", like a FIFO or a device, so those are refused the
// same way.
//
// What the walk leaves alone: the files of baselines the pattern does not ask for are never
// read. Such a baseline directory is seen in its parent's listing (a symlink there is refused),
// and its benchmark.json is stat'ed only above the deepest group level, where that is what tells
// a baseline from a group directory to descend into.
import type { FileReader } from "../../ports/files.ts";
import { mapConcurrent } from "../map-concurrent.ts";
import { InputError } from "../../errors.ts";
import { baseName, joinPath } from "../read-json.ts";
import { NOT_BASELINES, type BaselinePattern } from "./baseline-pattern.ts";

export interface WalkLimits {
  /** Group levels below the Criterion home: group[/function][/value] = 3. */
  readonly maxGroupDepth: number;
  /** Directory entries listed in total before the walk gives up. */
  readonly maxEntries: number;
}

/** One baseline directory the walk found: `<dir>/<baseline>/benchmark.json` is a file. */
export interface FoundBaseline {
  /** The benchmark directory (parent of the baseline directory). */
  readonly dir: string;
  readonly baseline: string;
}

/**
 * Directories or baselines in flight at once (a baseline is three reads). Each file operation is
 * a round trip to libuv's thread pool; on the 2-vCPU VM a 10,000-baseline tree read fastest at 16
 * (median of 3: 8, 32 or 64 in flight took 10–40 % longer), as 16 had for one baseline before.
 */
export const IO_CONCURRENCY = 16;

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

/** A directory found in a listing, in walk order. */
interface Child {
  readonly parent: string;
  readonly name: string;
  /** A baseline the pattern asks for, if it holds benchmark.json. */
  readonly wanted: boolean;
  /** Whether to look for its benchmark.json (see the top of the file). */
  readonly check: boolean;
}

/**
 * Every baseline directory under `home` the pattern matches, breadth-first over sorted listings,
 * one level at a time: the level's listings, then the benchmark.json checks of its children, each
 * step concurrent. The order found and the error reported do not depend on timing: the first in
 * walk order wins, whichever finished first (../map-concurrent.ts).
 */
export async function walkCriterionTree(
  home: string,
  pattern: BaselinePattern,
  reader: FileReader,
  limits: WalkLimits,
): Promise<FoundBaseline[]> {
  const found: FoundBaseline[] = [];
  let entries = 0;
  let level: string[] = [home];
  for (let depth = 0; level.length > 0; depth++) {
    const listings = await mapConcurrent(level, IO_CONCURRENCY, async (dir) => {
      const listing = await reader.list(dir);
      entries += listing.length;
      if (entries > limits.maxEntries) {
        throw new InputError(
          `Criterion tree has more than ${limits.maxEntries} entries; refusing to walk it`,
          { source: home },
        );
      }
      // Checked before report/ and change/ are set aside: the rule has no exceptions to explain.
      const odd = listing.find((e) => e.kind === "other");
      if (odd !== undefined) throw notFileOrDir(joinPath(dir, odd.name));
      return listing.filter((e) => e.kind === "dir" && !NOT_BASELINES.has(e.name));
    });
    const deeper = depth < limits.maxGroupDepth;
    // The home's children are groups or benchmarks, never baselines. Below it, a child holding
    // benchmark.json is a baseline directory; whether an unwanted child is one matters only
    // where a group directory would be descended into.
    const children: Child[] = listings.flatMap((dirs, i) =>
      dirs.map(({ name }) => {
        const wanted = depth >= 1 && pattern.matches(name);
        return {
          parent: level[i] as string,
          name,
          wanted,
          check: wanted || (depth >= 1 && deeper),
        };
      }),
    );
    const isBaseline = await mapConcurrent(children, IO_CONCURRENCY, async (child) =>
      child.check
        ? (await kindInTree(
            joinPath(joinPath(child.parent, child.name), "benchmark.json"),
            reader,
          )) === "file"
        : false,
    );
    const next: string[] = [];
    for (const [i, child] of children.entries()) {
      if (isBaseline[i] === true) {
        if (child.wanted) found.push({ dir: child.parent, baseline: child.name });
      } else if (deeper) {
        next.push(joinPath(child.parent, child.name));
      }
    }
    level = next;
  }
  return found;
}
