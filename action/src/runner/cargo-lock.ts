// A side's Cargo.lock, read after its bench targets are built (the build writes the lock when a
// crate has none): which version of a harness library the benchmarks link. gungraun's runner
// must be that exact version (gungraun-runner.ts); Criterion before 0.4 reads its time flags as
// whole seconds (pair-setup.ts).
import path from "node:path";
import type { RunDeps } from "./run-request.ts";

/** A lock file is text of a few hundred KiB at most; refuse anything absurd before reading. */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

/** The Cargo.lock that governs a manifest: next to it, or in a folder above it in the worktree. */
export async function findLock(
  worktree: string,
  manifest: string | undefined,
  deps: Pick<RunDeps, "reader">,
): Promise<string | undefined> {
  let dir = path.dirname(path.join(worktree, manifest ?? "Cargo.toml"));
  for (;;) {
    const candidate = path.join(dir, "Cargo.lock");
    if ((await deps.reader.kindOf(candidate)) === "file") return candidate;
    if (dir === worktree || !dir.startsWith(worktree + path.sep)) return undefined;
    dir = path.dirname(dir);
  }
}

/** A lock file's `[[package]]` entries: each name with its version as written. */
export function lockPackages(text: string): { readonly name: string; readonly version?: string }[] {
  return text
    .split(/^\[\[package\]\]\s*$/m)
    .slice(1)
    .flatMap((block) => {
      const name = /^name = "([^"\n]*)"\s*$/m.exec(block)?.[1];
      const version = /^version = "([^"\n]*)"\s*$/m.exec(block)?.[1];
      if (name === undefined) return [];
      return [version === undefined ? { name } : { name, version }];
    });
}
