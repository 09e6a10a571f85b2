// `node scripts/release.ts --version X.Y.Z [--dry-run] [--push REMOTE]`: makes a release from
// the commit checked out (clean, package.json at that version), the way .github/workflows/
// release.yml runs it (docs/action.md, "Installing a release"):
//
//   1. runs the tests (node scripts/test.ts) in the checkout, unless --skip-tests;
//   2. builds dist/ from that commit in a scratch copy (the checkout is never written to);
//   3. makes the release commit: the source commit's tree plus dist/ (which the repository
//      ignores), its parent the source commit, through a temporary index, so neither the
//      checkout's index nor HEAD changes;
//   4. checks that `uses: owner/repo/action@<release commit>` resolves to a file of that commit
//      (scripts/release-action-entry.ts), then tags it vX.Y.Z and moves the major tag (v0);
//   5. builds the CLI again with the release commit's SHA as `benchgate init`'s default
//      --action-ref (action/src/init/released-action.ts, rewritten in the scratch copy only),
//      packs it (package.json `files`: the CLI bundle and its licence notices), and runs
//      `npm publish` on the tarball, with --dry-run as CI does (publishing needs credentials);
//   6. with --push REMOTE, pushes the two tags in one atomic push: the version tag without force
//      (a published vX.Y.Z never moves), the major tag compare-and-swap from the commit the
//      remote showed (it moves on every release, but never over a move it has not seen).
//
// With --push, the remote's tags are read first (`git ls-remote --tags`), before the tests and
// the build: a remote that already has vX.Y.Z, whatever commit it names, is refused in one line
// (exit 1; "already released" when it is the commit the local tag names), so a second release
// from a clone without the tag cannot move the published one. A local version tag on the source
// commit (tagged by hand) is accepted and moved to the release commit, locally; a local tag
// anywhere else is refused.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { resolveActionEntry } from "./release-action-entry.ts";

/** What the release commit must hold for the action and the CLI to run. */
export const RELEASED_FILES = ["dist/benchgate-action.js", "dist/benchgate.js"] as const;
const RELEASED_ACTION_FILE = "action/src/init/released-action.ts";
const DEFAULT_ACTION = "benchgate/benchgate/action";
const VERSION = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
const ACTION = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}\/action$/;

export interface ReleaseResult {
  readonly version: string;
  readonly tag: string;
  readonly majorTag: string;
  readonly source: string;
  readonly release: string;
  /** The `uses:` value a workflow pins, with the tag as its comment. */
  readonly uses: string;
  readonly tarball: string;
}

class ReleaseError extends Error {}

function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
  if (result.status !== 0)
    throw new ReleaseError(
      `${command} ${args.join(" ")} failed (exit ${String(result.status ?? result.signal)}): ${String(result.stderr).trim()}`,
    );
  return String(result.stdout).trim();
}

/** `git archive COMMIT | tar -x -C DIR`: the commit's files, without touching any work tree. */
function exportCommit(repo: string, commit: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync("git", ["-C", repo, "archive", "--format=tar", commit], {
    maxBuffer: 4 * 1024 * 1024 * 1024,
  });
  if (archive.status !== 0)
    throw new ReleaseError(`git archive ${commit} failed: ${archive.stderr.toString().trim()}`);
  const tar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (tar.status !== 0) throw new ReleaseError(`tar -x failed: ${tar.stderr.toString().trim()}`);
}

/** Node 24 first on PATH, so npm and the build run on the Node this script runs on. */
function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const bin = path.dirname(process.execPath);
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env["PATH"] ?? ""}`, ...extra };
}

/** The source commit's released-action.ts with the release filled in. */
function releasedActionSource(template: string, action: string, sha: string, tag: string): string {
  const declaration = "export const RELEASED_ACTION: ReleasedAction | undefined = undefined;";
  if (!template.includes(declaration))
    throw new ReleaseError(`${RELEASED_ACTION_FILE} no longer declares ${declaration}`);
  return template.replace(
    declaration,
    `export const RELEASED_ACTION: ReleasedAction | undefined = ${JSON.stringify({ action, sha, tag })};`,
  );
}

/**
 * `git ls-remote --tags` output by tag name: the ref's value, and the commit it names (an
 * annotated tag's peeled `^{}` line, else the value itself).
 */
export function remoteTags(listing: string): Map<string, { value: string; commit: string }> {
  const tags = new Map<string, { value: string; commit: string }>();
  const peeled = new Map<string, string>();
  for (const line of listing.split("\n")) {
    const m = /^([0-9a-f]{40,64})\trefs\/tags\/(.+?)(\^\{\})?$/.exec(line);
    if (m === null) continue;
    const [, sha = "", name = "", peel] = m;
    if (peel === undefined) tags.set(name, { value: sha, commit: sha });
    else peeled.set(name, sha);
  }
  for (const [name, commit] of peeled) {
    const tag = tags.get(name);
    if (tag !== undefined) tags.set(name, { value: tag.value, commit });
  }
  return tags;
}

/**
 * Refuses when `remote` already has the version tag, whatever commit it names (one line; "already
 * released" when it is the commit the local tag names); otherwise what the remote's major tag
 * holds now ("" when it has none), the only value the push may replace.
 */
function unpublished(p: {
  readonly git: (...args: string[]) => string;
  readonly remote: string;
  readonly tag: string;
  readonly majorTag: string;
  readonly localTag: string;
}): string {
  const { remote, tag } = p;
  const refs = [`refs/tags/${tag}`, `refs/tags/${p.majorTag}`];
  const tags = remoteTags(p.git("ls-remote", "--tags", remote, ...refs));
  const published = tags.get(tag);
  if (published === undefined) return tags.get(p.majorTag)?.value ?? "";
  throw new ReleaseError(
    published.commit === p.localTag
      ? `${tag} is already released on ${remote} (${published.commit}): a version is released once; nothing pushed`
      : `${remote} already has the tag ${tag} (at ${published.commit}): a published version tag never moves; release a new version`,
  );
}

export interface ReleaseOptions {
  readonly repo: string;
  readonly version: string;
  readonly out: string;
  /** owner/repo/action of the published action (the init default names it). */
  readonly action?: string;
  readonly skipTests?: boolean;
  /** `npm publish --dry-run` instead of publishing. */
  readonly dryRun?: boolean;
  /** Skip `npm publish` altogether (tests that only check the git side and the tarball). */
  readonly noPublish?: boolean;
  readonly push?: string;
  readonly log?: (line: string) => void;
}

export function release(options: ReleaseOptions): ReleaseResult {
  const log = options.log ?? ((line: string) => process.stderr.write(`── ${line}\n`));
  const match = VERSION.exec(options.version);
  if (match === null) throw new ReleaseError(`--version ${options.version} is not X.Y.Z`);
  const action = options.action ?? DEFAULT_ACTION;
  if (!ACTION.test(action)) throw new ReleaseError(`--action ${action} is not owner/repo/action`);
  const tag = `v${options.version}`;
  const majorTag = `v${match[1] ?? ""}`;
  const repo = path.resolve(options.repo);
  const git = (...args: string[]): string => run("git", ["-C", repo, ...args]);

  // The source: the checkout's HEAD, clean, at this version, not already a release commit.
  if (git("status", "--porcelain", "--untracked-files=no") !== "")
    throw new ReleaseError(`${repo} has uncommitted changes: release from a clean checkout`);
  const source = git("rev-parse", "--verify", "HEAD^{commit}");
  const pkg = JSON.parse(git("show", `${source}:package.json`)) as { version?: unknown };
  if (pkg.version !== options.version)
    throw new ReleaseError(
      `package.json at ${source} has version ${String(pkg.version)}, not ${options.version}`,
    );
  if (git("ls-tree", "--name-only", source, "dist") !== "")
    throw new ReleaseError(`${source} already holds dist/: it is a release commit, not a source`);
  const localTag = spawnSync(
    "git",
    ["-C", repo, "rev-parse", "-q", "--verify", `${tag}^{commit}`],
    {
      encoding: "utf8",
    },
  ).stdout.trim();
  const majorLease =
    options.push === undefined
      ? undefined
      : unpublished({ git, remote: options.push, tag, majorTag, localTag });
  if (localTag !== "" && localTag !== source)
    throw new ReleaseError(`tag ${tag} already names ${localTag}, not ${source}: released before?`);

  if (options.skipTests !== true) {
    log(`tests at ${source}`);
    run(process.execPath, ["scripts/test.ts"], { cwd: repo, stdio: "inherit", env: toolEnv() });
  }

  const work = mkdtempSync(path.join(tmpdir(), "benchgate-release-"));
  try {
    // A scratch copy of the source commit, sharing the checkout's installed dependencies.
    const tree = path.join(work, "tree");
    exportCommit(repo, source, tree);
    if (!existsSync(path.join(repo, "node_modules")))
      throw new ReleaseError(`${repo}/node_modules is missing: install the dependencies first`);
    symlinkSync(path.join(repo, "node_modules"), path.join(tree, "node_modules"), "dir");
    log(`build dist/ from ${source}`);
    run(process.execPath, ["scripts/build.ts"], { cwd: tree, env: toolEnv() });
    for (const file of RELEASED_FILES)
      if (!existsSync(path.join(tree, file))) throw new ReleaseError(`the build made no ${file}`);

    // The release commit, through an index of its own: the checkout's index and HEAD stay.
    const gitDir = git("rev-parse", "--absolute-git-dir");
    const indexEnv = toolEnv({ GIT_INDEX_FILE: path.join(work, "index") });
    const identity = {
      GIT_AUTHOR_NAME: process.env["GIT_AUTHOR_NAME"] ?? "benchgate release",
      GIT_AUTHOR_EMAIL: process.env["GIT_AUTHOR_EMAIL"] ?? "release@benchgate.invalid",
      GIT_COMMITTER_NAME: process.env["GIT_COMMITTER_NAME"] ?? "benchgate release",
      GIT_COMMITTER_EMAIL: process.env["GIT_COMMITTER_EMAIL"] ?? "release@benchgate.invalid",
    };
    const indexed = (...args: string[]): string =>
      run("git", [`--git-dir=${gitDir}`, `--work-tree=${tree}`, ...args], {
        cwd: tree,
        env: { ...indexEnv, ...identity },
      });
    indexed("read-tree", source);
    indexed("add", "--force", "--", "dist");
    const releaseTree = indexed("write-tree");
    const message = `Release ${tag}: ${source.slice(0, 12)} with dist/ built\n\nSource commit: ${source}\n`;
    const releaseCommit = indexed("commit-tree", releaseTree, "-p", source, "-m", message);

    // What a workflow pinning the release commit gets: check it before any tag names it.
    const released = path.join(work, "released");
    exportCommit(repo, releaseCommit, released);
    const entry = resolveActionEntry(released, "action");
    for (const file of RELEASED_FILES)
      if (!existsSync(path.join(released, file)))
        throw new ReleaseError(`the release commit lacks ${file}`);
    log(`release commit ${releaseCommit}: action/action.yml runs ${entry.file}`);

    // The npm package: the CLI built once more, knowing the release commit for init's default.
    const releasedAction = path.join(tree, RELEASED_ACTION_FILE);
    writeFileSync(
      releasedAction,
      releasedActionSource(readFileSync(releasedAction, "utf8"), action, releaseCommit, tag),
    );
    run(process.execPath, ["scripts/build.ts"], { cwd: tree, env: toolEnv() });
    mkdirSync(options.out, { recursive: true });
    const packed = JSON.parse(
      // --ignore-scripts: the CLI was just built with the pin; prepack would build it again.
      run(
        "npm",
        ["pack", "--json", "--ignore-scripts", "--pack-destination", path.resolve(options.out)],
        {
          cwd: tree,
          env: toolEnv(),
        },
      ),
    ) as { filename: string }[];
    const tarball = path.join(path.resolve(options.out), packed[0]?.filename ?? "");
    if (!existsSync(tarball)) throw new ReleaseError(`npm pack wrote no tarball in ${options.out}`);
    log(`npm package ${tarball}`);
    if (options.noPublish !== true) {
      const dry = options.dryRun === true ? ["--dry-run"] : [];
      run("npm", ["publish", tarball, ...dry], { cwd: tree, env: toolEnv(), stdio: "inherit" });
    }
    // Tagged only now, so a failed build or pack leaves no tag behind to refuse a second try.
    git("tag", "--force", tag, releaseCommit);
    git("tag", "--force", majorTag, releaseCommit);

    if (options.push !== undefined) {
      log(`push ${tag} and ${majorTag} to ${options.push}`);
      // Atomic: both tags or neither. No `+`: git itself refuses a vX.Y.Z that appeared on the
      // remote since it was read; the major tag moves only from the commit read then.
      git(
        "push",
        "--atomic",
        `--force-with-lease=refs/tags/${majorTag}:${majorLease ?? ""}`,
        options.push,
        `refs/tags/${tag}:refs/tags/${tag}`,
        `refs/tags/${majorTag}:refs/tags/${majorTag}`,
      );
    }
    // The release commit and its tags as a file, for publishing from another machine.
    git(
      "bundle",
      "create",
      path.join(path.resolve(options.out), "release.bundle"),
      `refs/tags/${tag}`,
      `refs/tags/${majorTag}`,
      `^${source}`,
    );
    const result: ReleaseResult = {
      version: options.version,
      tag,
      majorTag,
      source,
      release: releaseCommit,
      uses: `${action}@${releaseCommit} # ${tag}`,
      tarball,
    };
    writeFileSync(
      path.join(path.resolve(options.out), "release.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main(): number {
  const { values } = parseArgs({
    options: {
      version: { type: "string" },
      repo: { type: "string" },
      out: { type: "string" },
      action: { type: "string" },
      "skip-tests": { type: "boolean" },
      "dry-run": { type: "boolean" },
      push: { type: "string" },
    },
    strict: true,
  });
  if (values.version === undefined) {
    process.stderr.write(
      "usage: node scripts/release.ts --version X.Y.Z [--out DIR] [--dry-run] [--push REMOTE] [--skip-tests] [--action owner/repo/action]\n",
    );
    return 2;
  }
  try {
    const result = release({
      repo: values.repo ?? process.cwd(),
      version: values.version.replace(/^v/, ""),
      out: values.out ?? path.join(process.cwd(), ".benchgate/release"),
      skipTests: values["skip-tests"] === true,
      dryRun: values["dry-run"] === true,
      ...(values.action === undefined ? {} : { action: values.action }),
      ...(values.push === undefined ? {} : { push: values.push }),
    });
    process.stdout.write(
      `released ${result.tag} (${result.release}); pin it as\n  uses: ${result.uses}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    process.stderr.write(`release: error: ${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
