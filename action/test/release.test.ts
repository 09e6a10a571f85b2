// The release (docs/action.md, "Installing a release"): the npm package holds only the CLI and
// runs from an empty prefix with no dependency installed; scripts/release.ts, run on a scratch
// copy of this work tree against a local bare repository (no network), makes a release commit
// whose tree a workflow pinning it resolves, tags it, and packs a CLI whose `init` writes that pin.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildNodeBundle } from "../../scripts/build.ts";
import { resolveActionEntry } from "../../scripts/release-action-entry.ts";
import { findTools, lintRepo } from "../../scripts/lint-workflows.ts";
import { remoteTags } from "../../scripts/release.ts";
import { buildSiteBundle } from "../src/site/build-site-bundle.ts";
import { ROOT } from "./support/cli.ts";

const FIXTURES = path.join(ROOT, "action/test/fixtures/criterion-0.8.2");
const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
  }
).version;
/** Paths that are for developing benchgate, never for running it. */
const DEV_ONLY = /(?:^|\/)(?:test|tests|fixtures|bench|examples|scripts|action|schemas|docs)\//;
const MAX_PACKED_FILES = 300;
const BUILD_TIMEOUT = 600_000;

const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-release-test-"));
// The scratch copy of the repository is large: removing it takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

/** Node 24 first on PATH: npm and the installed `benchgate` (#!/usr/bin/env node) run on it. */
const env = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env["PATH"] ?? ""}`,
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  BENCHGATE_DEBUG: "",
};

function sh(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

function ok(command: string, args: readonly string[], cwd: string): string {
  const r = sh(command, args, cwd);
  expect(r.status, `${command} ${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r.stdout.trim();
}

/** `npm install --prefix EMPTY TARBALL` offline: the package must need nothing else. */
function installInto(tarball: string, name: string): string {
  const prefix = path.join(scratch, name);
  mkdirSync(prefix);
  ok("npm", ["install", "--prefix", prefix, "--ignore-scripts", tarball], scratch);
  const bin = path.join(prefix, "node_modules/.bin/benchgate");
  expect(lstatSync(bin).isSymbolicLink()).toBe(true);
  // Nothing but benchgate itself was installed: no runtime dependency at all.
  const lock = JSON.parse(readFileSync(path.join(prefix, "package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  expect(Object.keys(lock.packages).sort()).toEqual(["", "node_modules/benchgate"]);
  return bin;
}

function tarEntries(tarball: string): string[] {
  return ok("tar", ["-tzf", tarball], scratch)
    .split("\n")
    .map((entry) => entry.replace(/^package\//, ""))
    .sort();
}

describe("the npm package", () => {
  it(
    "packs only the CLI, built by prepack, from a clean copy of this repository (npm pack --dry-run)",
    () => {
      // A clean clone has no dist/: the package's prepack script must build the CLI it ships.
      const clean = path.join(scratch, "clean");
      mkdirSync(clean);
      scratchSource(clean);
      expect(existsSync(path.join(clean, "dist"))).toBe(false);
      const report = JSON.parse(ok("npm", ["pack", "--dry-run", "--json"], clean)) as {
        entryCount: number;
        files: { path: string }[];
      }[];
      const files = (report[0]?.files ?? []).map((f) => f.path);
      expect(files).toContain("dist/benchgate.js");
      expect(files).toContain("package.json");
      expect(files).toContain("README.md");
      expect(report[0]?.entryCount).toBeLessThan(MAX_PACKED_FILES);
      expect(files.filter((f) => DEV_ONLY.test(f) || /\.map$|\.test\.ts$/.test(f))).toEqual([]);
      for (const file of files)
        expect([
          "package.json",
          "README.md",
          "LICENSE",
          "dist/benchgate.js",
          "dist/benchgate.js.LEGAL.txt",
        ]).toContain(file);
    },
    BUILD_TIMEOUT,
  );

  it(
    "installs from its tarball into an empty prefix and runs --help, ingest and compare on fixtures",
    async () => {
      // The package as `npm pack` makes it from a fresh build of this work tree.
      const stage = path.join(scratch, "stage");
      mkdirSync(path.join(stage, "dist"), { recursive: true });
      for (const file of ["package.json", "README.md", "LICENSE"])
        copyFileSync(path.join(ROOT, file), path.join(stage, file));
      await buildNodeBundle(
        path.join(ROOT, "action/src/cli/index.ts"),
        path.join(stage, "dist/benchgate.js"),
        await buildSiteBundle(),
      );
      // --ignore-scripts: the stage holds the fresh build and none of the sources prepack builds.
      const packed = JSON.parse(ok("npm", ["pack", "--json", "--ignore-scripts"], stage)) as {
        filename: string;
      }[];
      const tarball = path.join(stage, packed[0]?.filename ?? "");
      expect(tarEntries(tarball)).toEqual([
        "LICENSE",
        "README.md",
        "dist/benchgate.js",
        "dist/benchgate.js.LEGAL.txt",
        "package.json",
      ]);

      const bin = installInto(tarball, "empty-prefix");
      const help = sh(bin, ["--help"], scratch);
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^benchgate ${VERSION.replaceAll(".", "\\.")}:`));
      expect(help.stdout).toContain("compare");

      // Real Criterion 0.8.2 output: base and head baselines, ingested and compared.
      const out = path.join(scratch, "compare");
      mkdirSync(out);
      for (const side of ["base", "head"])
        ok(bin, ["ingest", "criterion", FIXTURES, "--baseline", side, "-o", `${side}.json`], out);
      const compare = sh(
        bin,
        ["compare", "--base", "base.json", "--head", "head.json", "--json", "report.json"],
        out,
      );
      expect([0, 1], compare.stderr).toContain(compare.status);
      const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as {
        verdict: string;
        benchmarks: { id: string }[];
      };
      expect(["pass", "fail", "inconclusive"]).toContain(report.verdict);
      expect(report.benchmarks.map((b) => b.id)).toContain("fib 20");
      expect(report.benchmarks.map((b) => b.id)).toContain("sort/unstable/1000");
    },
    BUILD_TIMEOUT,
  );
});

/** This work tree's files (tracked and new, not ignored) as one commit of a fresh repository. */
function scratchSource(dir: string): string {
  const listed = ok("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT)
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(ROOT, file)));
  for (const file of new Set(listed)) {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(ROOT, file), target);
  }
  ok("git", ["init", "--quiet", "--initial-branch=main"], dir);
  ok("git", ["add", "--all"], dir);
  ok(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "source"],
    dir,
  );
  // After the commit: the release builds with the dependencies installed here.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return ok("git", ["rev-parse", "HEAD"], dir);
}

describe("remoteTags", () => {
  it("reads git ls-remote --tags: a lightweight tag's commit, an annotated one's peeled commit", () => {
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40));
    const listing = `${a}\trefs/tags/v0\n${b}\trefs/tags/v0.1.0\n${c}\trefs/tags/v0.1.0^{}\n`;
    expect(remoteTags(listing)).toEqual(
      new Map([
        ["v0", { value: a, commit: a }],
        ["v0.1.0", { value: b, commit: c }],
      ]),
    );
    expect(remoteTags("")).toEqual(new Map());
  });
});

describe("scripts/release.ts against a local bare repository", () => {
  const source = path.join(scratch, "source");
  const remote = path.join(scratch, "remote.git");
  const out = path.join(scratch, "release-out");
  let sourceCommit = "";
  let released: { tag: string; majorTag: string; release: string; uses: string; tarball: string };
  let run: SpawnSyncReturns<string>;

  beforeAll(() => {
    mkdirSync(source);
    sourceCommit = scratchSource(source);
    ok("git", ["init", "--quiet", "--bare", remote], scratch);
    run = sh(
      process.execPath,
      [
        "scripts/release.ts",
        "--version",
        VERSION,
        "--skip-tests",
        "--dry-run",
        "--push",
        remote,
        "--out",
        out,
      ],
      source,
    );
    if (run.status === 0)
      released = JSON.parse(
        readFileSync(path.join(out, "release.json"), "utf8"),
      ) as typeof released;
  }, BUILD_TIMEOUT);

  it("makes a release commit on top of the source, tags it and pushes the tags", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(released.tag).toBe(`v${VERSION}`);
    expect(released.majorTag).toBe(`v${VERSION.split(".")[0] ?? ""}`);
    expect(released.uses).toBe(`benchgate/benchgate/action@${released.release} # v${VERSION}`);
    expect(run.stdout).toContain(`uses: ${released.uses}`);
    expect(run.stdout + run.stderr).toMatch(/\(dry-run\)/); // npm publish --dry-run ran
    for (const tag of [released.tag, released.majorTag])
      expect(ok("git", ["rev-parse", `${tag}^{commit}`], remote)).toBe(released.release);
    expect(ok("git", ["rev-parse", `${released.release}^`], remote)).toBe(sourceCommit);
    // The source checkout is as it was: same HEAD, nothing staged, nothing changed.
    expect(ok("git", ["rev-parse", "HEAD"], source)).toBe(sourceCommit);
    expect(ok("git", ["status", "--porcelain", "--untracked-files=no"], source)).toBe("");
    // The release adds dist/ and nothing else.
    const added = ok("git", ["diff", "--name-status", sourceCommit, released.release], remote);
    expect(
      added.split("\n").every((line) => /^A\tdist\//.test(line)),
      added,
    ).toBe(true);
  });

  it("resolves `uses: owner/repo/action@<release SHA>` as GitHub does: action/action.yml's runs.main exists", () => {
    const workflow = `steps:\n  - uses: ${released.uses}\n`;
    const uses = String((parse(workflow) as { steps: { uses: string }[] }).steps[0]?.uses);
    const ref = /^([^/]+)\/([^/]+)\/(.+)@([0-9a-f]{40})$/.exec(uses);
    expect(ref).not.toBeNull();
    const [, , , actionDir = "", sha = ""] = ref ?? [];
    // The repository at that commit, as the runner downloads it.
    const consumer = path.join(scratch, "consumer");
    ok("git", ["clone", "--quiet", "--no-checkout", remote, consumer], scratch);
    ok("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", sha], consumer);
    const actionYml = parse(readFileSync(path.join(consumer, actionDir, "action.yml"), "utf8")) as {
      runs: { using: string; main: string };
    };
    expect(actionYml.runs.using).toBe("node24");
    const main = path.posix.normalize(path.posix.join(actionDir, actionYml.runs.main));
    expect(main).toBe("dist/benchgate-action.js");
    expect(ok("git", ["cat-file", "-t", `${sha}:${main}`], consumer)).toBe("blob");
    expect(resolveActionEntry(consumer, actionDir).file).toBe(main);
    // The committed bundle is the built action, not a stub: it carries the version it reports.
    expect(readFileSync(path.join(consumer, main), "utf8")).toContain(`"${VERSION}"`);
    // The same commit without dist/ (the source) does not resolve: the check can fail.
    ok("git", ["checkout", "--quiet", sourceCommit], consumer);
    expect(() => resolveActionEntry(consumer, actionDir)).toThrow(/does not hold/);
  });

  it("packs a CLI whose `init` writes the release commit, pinned, by default", () => {
    expect(tarEntries(released.tarball)).toEqual([
      "LICENSE",
      "README.md",
      "dist/benchgate.js",
      "dist/benchgate.js.LEGAL.txt",
      "package.json",
    ]);
    const bin = installInto(released.tarball, "released-prefix");
    const repo = path.join(scratch, "user-repo");
    mkdirSync(repo);
    writeFileSync(path.join(repo, "Cargo.toml"), '[package]\nname = "x"\n');
    const init = sh(bin, ["init", "--dir", repo, "--bench", "b"], repo);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stderr).not.toContain("not pinned");
    const pr = readFileSync(path.join(repo, ".github/workflows/benchgate-pr.yml"), "utf8");
    expect(pr).toContain(`uses: benchgate/benchgate/action@${released.release}`);
    // Editors fetch the config's schema from the release's tag, which holds schemas/.
    expect(readFileSync(path.join(repo, "benchgate.yml"), "utf8").split("\n")[0]).toBe(
      `# yaml-language-server: $schema=https://raw.githubusercontent.com/benchgate/benchgate/v${VERSION}/schemas/config.v1.schema.json`,
    );
    // As written, in the user's repository and with nothing else: actionlint and zizmor pass
    // (the tools are installed wherever CI runs; workflows.test.ts requires them there).
    const tools = findTools();
    if (tools.actionlint !== undefined && tools.zizmor !== undefined) {
      ok("git", ["init", "--quiet"], repo);
      const lint = lintRepo(repo, "the released CLI's init", {
        actionlint: tools.actionlint,
        zizmor: tools.zizmor,
      });
      for (const r of lint) expect(r.ok, `${r.tool}:\n${r.output}`).toBe(true);
    }
    expect(sh(bin, ["init", "--help"], repo).stdout).toContain(
      "the release this CLI was published with",
    );
  });

  it("refuses, before building, a second release from a clone without the tag: the remote's tags do not move", () => {
    // A second machine: a fresh clone of the same source, without the tags the first release made
    // (sparse and sharing the source's objects: the release reads the commit, not the files, so
    // the script runs from the source checkout with --repo).
    const clone = path.join(scratch, "second-clone");
    ok("git", ["clone", "--quiet", "--no-tags", "--sparse", "--shared", source, clone], scratch);
    symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
    const published = ok("git", ["ls-remote", "--tags", remote], scratch);
    const secondOut = path.join(scratch, "second-out");
    const second = sh(
      process.execPath,
      [
        path.join(source, "scripts/release.ts"),
        ...["--repo", clone, "--version", VERSION, "--skip-tests", "--dry-run"],
        ...["--push", remote, "--out", secondOut],
      ],
      clone,
    );
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toBe(
      `release: error: ${remote} already has the tag v${VERSION} (at ${released.release}): a published version tag never moves; release a new version\n`,
    );
    expect(ok("git", ["ls-remote", "--tags", remote], scratch)).toBe(published);
    expect(ok("git", ["rev-parse", `v${VERSION}^{commit}`], remote)).toBe(released.release);
    // Refused before the build: nothing was made.
    expect(existsSync(secondOut)).toBe(false);
    expect(ok("git", ["tag", "--list"], clone)).toBe("");
  });

  it("says a version is already released when the remote's tag is the one this checkout made", () => {
    const again = sh(
      process.execPath,
      ["scripts/release.ts", "--version", VERSION, "--skip-tests", "--push", remote, "--out", out],
      source,
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      `release: error: v${VERSION} is already released on ${remote} (${released.release}): a version is released once; nothing pushed\n`,
    );
  });

  it("refuses to release the same version again", () => {
    const again = sh(
      process.execPath,
      ["scripts/release.ts", "--version", VERSION, "--skip-tests", "--out", out],
      source,
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/tag v\S+ already names [0-9a-f]{40}, not [0-9a-f]{40}/);
  });
});
