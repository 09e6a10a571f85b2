// Throw-away git repositories for end-to-end tests of `benchgate run`: a copy of an example crate
// (without its target/; the demo crate with this repository's baselines/ beside it), a base
// commit, optionally edits or the demo's head patch, a head commit.
// Git runs with a fixed identity and no signing, so the user's git config cannot get in the way.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./cli.ts";

export const DEMO_CRATE = path.join(ROOT, "examples/demo-crate");
export const DEMO_HEAD_PATCH = path.join(ROOT, "examples/demo-crate.head.patch");
/** This repository's reviewed baselines/, whose golden outputs the demo crate's config reads. */
export const BASELINES = path.join(ROOT, "baselines");

/**
 * File edits, by path relative to the repository root: new contents, a function of the old
 * contents, or null to delete the file.
 */
export type Edits = Readonly<Record<string, string | ((old: string) => string) | null>>;

/** git's own variables would send it to another repository (e.g. when run from a git hook). */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("GIT_")) delete env[key];
  env["GIT_TERMINAL_PROMPT"] = "0";
  env["GIT_CONFIG_NOSYSTEM"] = "1";
  return env;
}

/**
 * The environment a benchgate command under test starts from: none of the GITHUB_*, RUNNER_*,
 * INPUT_* or GIT_* variables of whoever runs the tests, and no system or user git config.
 */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(GIT_|GITHUB_|RUNNER_|INPUT_)/.test(k)) env[k] = v;
  env["GIT_CONFIG_NOSYSTEM"] = "1";
  env["GIT_CONFIG_GLOBAL"] = "/dev/null";
  return env;
}

const IDENTITY = [
  "-c",
  "user.name=benchgate tests",
  "-c",
  "user.email=tests@benchgate.invalid",
  "-c",
  "commit.gpgsign=false",
  "-c",
  "tag.gpgsign=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "init.defaultBranch=main",
];

/**
 * Edits made after the demo's head patch (`headPatch: true`) so that `normalize` does 30 passes
 * instead of the patch's 3: a ×30 slowdown instead of ×3. The ×3 is clear on an idle machine, but
 * three rounds on two cores that other work keeps busy leave it inconclusive now and then, as
 * they rightly should; a test that needs a confirmed regression to check something else (the
 * check run, the annotations, an acceptance) uses this one, which the rule still confirms there.
 */
export const NORMALIZE_30X: Edits = {
  "src/lib.rs": (text) =>
    replaceOnce(text, "pub const PASSES: usize = 3;", "pub const PASSES: usize = 30;"),
};

/** Runs git in `dir` and returns its stdout; throws with git's stderr on failure. */
export function git(dir: string, args: readonly string[]): string {
  try {
    return execFileSync("git", [...IDENTITY, "-C", dir, ...args], {
      encoding: "utf8",
      env: gitEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? "";
    throw new Error(`git ${args.join(" ")} failed in ${dir}: ${stderr}`, { cause: error });
  }
}

/** Replaces exactly one occurrence of `from`; throws when it is missing, so edits never go stale. */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + from.length) >= 0)
    throw new Error(`expected exactly one ${JSON.stringify(from)} in the file`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

export function applyEdits(dir: string, edits: Edits): void {
  for (const [file, edit] of Object.entries(edits)) {
    const target = path.join(dir, file);
    if (edit === null) {
      rmSync(target, { force: true });
      continue;
    }
    const text = typeof edit === "string" ? edit : edit(readFileSync(target, "utf8"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** Copies a crate without its build output (target/) into `to`. */
export function copyCrate(from: string, to: string): void {
  const skip = path.join(from, "target");
  cpSync(from, to, {
    recursive: true,
    filter: (source) => source !== skip && !source.startsWith(skip + path.sep),
  });
}

/**
 * The demo's repository in `to`: examples/demo-crate (without target/) and, beside it, a copy of
 * this repository's baselines/, where the crate's benchgate.yml finds its golden outputs
 * (`baselines/checksums.sha256`), as in `npm run demo`.
 */
export function copyDemoCrate(to: string): void {
  copyCrate(DEMO_CRATE, to);
  cpSync(BASELINES, path.join(to, "baselines"), { recursive: true });
}

/** Stages everything and commits (empty commits allowed); returns the new commit's SHA. */
export function commitAll(dir: string, message: string): string {
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "--allow-empty", "--no-verify", "-m", message]);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

export interface ThrowAwayRepo {
  readonly dir: string;
  readonly base: string;
  readonly head: string;
}

export interface RepoOptions {
  /** The crate to copy (default: examples/demo-crate, with baselines/ as copyDemoCrate does). */
  readonly crate?: string;
  /** Edits made before the base commit. */
  readonly base?: Edits;
  /** Apply examples/demo-crate.head.patch for the head commit. */
  readonly headPatch?: boolean;
  /** Edits made (after the patch, if any) before the head commit; none makes an empty commit. */
  readonly head?: Edits;
}

/** A new repository in `dir` (which must not exist yet) with a base and a head commit. */
export function throwAwayRepo(dir: string, options: RepoOptions = {}): ThrowAwayRepo {
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  const crate = options.crate ?? DEMO_CRATE;
  if (crate === DEMO_CRATE) copyDemoCrate(dir);
  else copyCrate(crate, dir);
  git(dir, ["init", "--quiet"]);
  applyEdits(dir, options.base ?? {});
  const base = commitAll(dir, "base");
  if (options.headPatch === true) git(dir, ["apply", DEMO_HEAD_PATCH]);
  applyEdits(dir, options.head ?? {});
  const head = commitAll(dir, "head");
  return { dir, base, head };
}

/** The worktrees git knows of (`git worktree list --porcelain`), main checkout first. */
export function worktrees(dir: string): string[] {
  return git(dir, ["worktree", "list", "--porcelain"])
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length));
}
