// A gungraun (or iai-callgrind) bench binary hands its benchmarks to a runner program found on
// PATH, and the two must be the very same version: the library checks it and stops otherwise.
// So for each side the version comes from that side's Cargo.lock (after the bench target is
// built, which writes the lock when a crate has none), and the runner of exactly that version is
// installed once per machine with `cargo install --locked` into the tools folder, then put first
// on PATH for the suite's commands of that side. Base and head may use different versions.
import path from "node:path";
import { InputError, ToolError } from "../errors.ts";
import { runStep } from "../exec/run-step.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import type { RunDeps } from "./run-request.ts";
import { findLock, lockPackages, MAX_LOCK_BYTES } from "./cargo-lock.ts";
import { watchCargo } from "./build-progress.ts";

/** The harness library a lock file names, and its runner's crate. */
interface Harness {
  readonly library: "gungraun" | "iai-callgrind";
  readonly version: string;
}

const RUNNER = { gungraun: "gungraun-runner", "iai-callgrind": "iai-callgrind-runner" } as const;
/** Cargo's semver, strictly: the version becomes a folder name and a command-line argument. */
const VERSION = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?$/;
const INSTALL_TIMEOUT_MS = 20 * 60_000;
const LOCK_WAIT_MS = 2_000;

/**
 * The harness in a Cargo.lock: its `[[package]]` entries named gungraun or iai-callgrind. Several
 * versions of one (or both libraries) cannot be run with one runner: an error.
 */
export function harnessInLock(text: string, source: string): Harness | undefined {
  const found: Harness[] = [];
  for (const { name, version } of lockPackages(text)) {
    if (name !== "gungraun" && name !== "iai-callgrind") continue;
    if (version === undefined || !VERSION.test(version))
      throw new InputError(`${name} has no valid version in the lock file`, { source });
    found.push({ library: name, version });
  }
  if (found.length > 1)
    throw new InputError(
      `the lock file names ${found.map((h) => `${h.library} ${h.version}`).join(" and ")}: one bench target can only be run by one runner version`,
      { source },
    );
  return found[0];
}

/** Installs the runner unless it is there; one installer at a time per version. */
async function installRunner(harness: Harness, tools: string, deps: RunDeps): Promise<string> {
  const crate = RUNNER[harness.library];
  const root = path.join(tools, `${crate}-${harness.version}`);
  const binary = path.join(root, "bin", crate);
  if ((await deps.reader.kindOf(binary)) === "file") return root;
  await deps.dirs.ensure(tools);
  const started = deps.clock.now();
  for (;;) {
    const lock = await deps.dirs.lock(`${root}.lock`);
    if ("release" in lock) {
      try {
        if ((await deps.reader.kindOf(binary)) === "file") return root;
        deps.progress.line(
          `installing ${crate} ${harness.version} into ${root} (cargo install --locked, once per version; a few minutes)`,
        );
        // Not the side's target directory: the runner builds in a temporary one of its own.
        const env = Object.fromEntries(
          Object.entries(deps.env).filter(([k]) => k !== "CARGO_TARGET_DIR"),
        );
        // A few silent minutes otherwise: cargo's Compiling lines, and a heartbeat.
        const watch = watchCargo(`installing ${crate}`, deps);
        await runStep(
          deps.proc,
          `installing ${crate} ${harness.version}`,
          [
            "cargo",
            "install",
            "--locked",
            crate,
            "--version",
            `=${harness.version}`,
            "--root",
            root,
          ],
          {
            cwd: tools,
            env,
            timeoutMs: INSTALL_TIMEOUT_MS,
            signal: deps.signal,
            onLine: watch.onLine,
          },
        ).finally(watch.stop);
        return root;
      } finally {
        await lock.release();
      }
    }
    if (deps.clock.now() - started > INSTALL_TIMEOUT_MS)
      throw new ToolError(
        `${crate} ${harness.version} is being installed by ${lock.heldBy} for too long`,
      );
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
  }
}

/**
 * For one side's gungraun suite (its name and bench target), after its bench target is built:
 * the variables its commands need (PATH with the matching runner first).
 */
export async function prepareGungraun(
  suite: { readonly name: string; readonly manifestPath?: string },
  side: Side,
  paths: SidePaths,
  tools: string,
  deps: RunDeps,
): Promise<Record<string, string>> {
  const lock = await findLock(paths.worktree, suite.manifestPath, deps);
  const where = `suite ${suite.name} (${side})`;
  if (lock === undefined)
    throw new InputError(`${where}: no Cargo.lock after building the bench target`);
  const text = await deps.reader.readText(lock, MAX_LOCK_BYTES);
  const harness = harnessInLock(text, lock);
  if (harness === undefined)
    throw new InputError(
      `${where}: ${path.relative(paths.worktree, lock)} names neither gungraun nor iai-callgrind; a gungraun suite needs a bench target written with one of them`,
    );
  const root = await installRunner(harness, tools, deps);
  deps.progress.line(`${where}: ${harness.library} ${harness.version}, runner ${root}`);
  const inherited = deps.env["PATH"];
  const bin = path.join(root, "bin");
  return { PATH: inherited === undefined || inherited === "" ? bin : `${bin}:${inherited}` };
}
