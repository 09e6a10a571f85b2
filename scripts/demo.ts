// `npm run demo`: the whole gate locally, with real tools and no GitHub (README.md, "Two commands").
// Makes a throw-away git repository of examples/demo-crate and this repository's reviewed
// baselines/ (its golden outputs; baselines/README.md), with a base commit and a head commit
// (examples/demo-crate.head.patch: `normalize` does three passes instead of one, `fnv1a` hashes in
// 128-byte blocks instead of 4 KiB ones — about 3 % more instructions and no change in time,
// which only the counts see — and one line of `demo-cli --help` changes), then runs `benchgate run` on the two
// commits: each side built once, Criterion and hyperfine in interleaved rounds, instruction
// counts under Valgrind (gungraun and cachegrind), golden outputs, budgets, critcmp. Everything
// lands in .benchgate/demo/out. Then both commits are recorded, as pushes to main would record
// them, in a history on the gh-pages branch of a local bare repository (`benchgate history
// append`, the same compare-and-swap writer and page renderer as on GitHub), and the page is
// copied to .benchgate/demo/out/history/. Exit 0 when the verdict is the expected one.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const crate = path.join(root, "examples/demo-crate");
const patch = path.join(root, "examples/demo-crate.head.patch");
const baselines = path.join(root, "baselines");
const demo = path.join(root, ".benchgate/demo");
const repo = path.join(demo, "repo");
const out = path.join(demo, "out");
const cache = path.join(demo, "cache");
const SLOWED = "normalize";
const BROKEN_GOLDEN = "cli-help";
const CHECKSUM_TIMING = "checksum/fnv1a";
const started = Date.now();

const env: Record<string, string | undefined> = {
  ...process.env,
  PATH: `${process.env["HOME"] ?? ""}/.cargo/bin:${process.env["PATH"] ?? ""}`,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};
const say = (text: string): void =>
  void process.stderr.write(`demo [${((Date.now() - started) / 1000).toFixed(0)} s] ${text}\n`);

function git(args: string[]): string {
  const r = spawnSync(
    "git",
    ["-c", "user.name=benchgate demo", "-c", "user.email=demo@benchgate.invalid", ...args],
    { cwd: repo, encoding: "utf8", env },
  );
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

function makeRepository(): { base: string; head: string } {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  cpSync(crate, repo, { recursive: true, filter: (src) => path.basename(src) !== "target" });
  // The crate's benchgate.yml reads baselines/ at the root of the repository it runs in: here,
  // a copy of benchgate's own reviewed baselines/.
  cpSync(baselines, path.join(repo, "baselines"), { recursive: true });
  git(["init", "--quiet", "--initial-branch=main"]);
  git(["add", "--all"]);
  git(["commit", "--quiet", "--no-gpg-sign", "-m", "base: the demo crate"]);
  const base = git(["rev-parse", "HEAD"]);
  git(["apply", patch]);
  git([
    "commit",
    "--quiet",
    "--no-gpg-sign",
    "-am",
    "head: normalize does three passes; fnv1a hashes 128-byte blocks; reword --help",
  ]);
  return { base, head: git(["rev-parse", "HEAD"]) };
}

/** Runs the CLI with its progress streaming through, as a user would see it. */
function benchgate(args: string[], childEnv = env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "action/src/cli/index.ts"), ...args], {
      env: childEnv,
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? 3));
  });
}

interface Report {
  verdict: string;
  benchmarks: {
    id: string;
    suite: string;
    verdict: string;
    base: unknown;
    head: unknown;
    change: number | null;
    ci: [number, number] | null;
    secondary?: boolean;
    determinism?: { status: string };
  }[];
  golden: { name: string; ok: boolean }[];
  claims?: { faster: string; verdict: string }[];
  environment: { base?: unknown; head?: unknown };
}

/**
 * The history page of the demo: base and head recorded as two pushes to main. The head's
 * record is the report's head side; the base's is the same report with the sides swapped (its
 * measured medians over the same rounds). `--event push` etc. stand in for what GitHub Actions
 * would report (the history guard refuses anything but a push to the default branch).
 */
async function historyPage(
  report: Report,
  commits: { base: string; head: string },
): Promise<string> {
  const pages = path.join(demo, "pages.git");
  const site = path.join(out, "history");
  rmSync(pages, { recursive: true, force: true });
  rmSync(site, { recursive: true, force: true });
  mkdirSync(pages, { recursive: true });
  git(["init", "--quiet", "--bare", pages]);
  const baseReport = path.join(out, "history-base-report.json");
  writeFileSync(
    baseReport,
    JSON.stringify({
      ...report,
      benchmarks: report.benchmarks.map((b) => ({ ...b, head: b.base })),
      environment: { ...report.environment, head: report.environment.base },
    }),
  );
  const local = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("GITHUB_")));
  for (const [sha, file] of [
    [commits.base, baseReport],
    [commits.head, path.join(out, "report.json")],
  ] as const) {
    const status = await benchgate(
      [
        "history",
        "append",
        "--report",
        file,
        "--remote",
        pages,
        "--sha",
        sha,
        "--repo",
        repo,
        "--event",
        "push",
        "--ref",
        "refs/heads/main",
        "--default-branch",
        "main",
        "--title",
        "benchgate demo",
      ],
      local,
    );
    if (status !== 0) throw new Error(`benchgate history append exited with ${status}`);
  }
  rmSync(baseReport);
  const checkout = path.join(demo, "pages-checkout");
  rmSync(checkout, { recursive: true, force: true });
  spawnSync("git", ["clone", "--quiet", "--branch", "gh-pages", pages, checkout], { env });
  cpSync(path.join(checkout, "benchgate"), site, { recursive: true });
  rmSync(checkout, { recursive: true, force: true });
  return path.join(site, "index.html");
}

try {
  if (!existsSync(crate) || !existsSync(patch) || !existsSync(baselines))
    throw new Error("examples/demo-crate or baselines/ is missing: run from a benchgate checkout");
  say(`throw-away repository: ${path.relative(root, repo)}`);
  const commits = makeRepository();
  const { base, head } = commits;
  say(`base ${base.slice(0, 12)} (the crate as it is), head ${head.slice(0, 12)} (the patch)`);
  say(
    "the first build compiles Criterion once (about a minute); later runs reuse .benchgate/demo/cache",
  );
  const status = await benchgate([
    "run",
    "--repo",
    repo,
    "--base",
    base,
    "--head",
    head,
    "--out",
    out,
    "--cache-dir",
    cache,
  ]);
  if (status === 2 || status === 3) throw new Error(`benchgate run exited with ${status}`);
  const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as Report;
  // Timings and instruction counts are decided apart (docs/instruction-counts.md).
  // The load suite is part of the check: a load benchmark is confirmed only from 12 rounds on, by
  // the median of its rounds and the sign test (docs/load-tests.md, "Cost and noise"), so the
  // modes a loop-back load runs in on a shared machine no longer read as a change.
  const primary = report.benchmarks.filter((b) => b.secondary !== true);
  const isCount = (b: Report["benchmarks"][number]): boolean => b.determinism !== undefined;
  const regressed = primary
    .filter((b) => !isCount(b) && b.verdict === "regressed")
    .map((b) => b.id);
  const countsRegressed = primary
    .filter((b) => isCount(b) && b.verdict === "regressed")
    .map((b) => b.id);
  const changedGolden = report.golden.filter((g) => !g.ok).map((g) => g.name);
  // Both claims (binary search ≥ 10× a scan; the Rust server ≥ 3× the Python one's req/s) hold
  // in head: the patch touches neither.
  const claims = (report.claims ?? []).map((c) => `${c.faster} ${c.verdict}`);
  const claimsHold =
    (report.claims ?? []).length === 2 && (report.claims ?? []).every((c) => c.verdict === "holds");
  const others = new Map<string, number>();
  for (const b of primary)
    if (!isCount(b) && b.id !== SLOWED) others.set(b.verdict, (others.get(b.verdict) ?? 0) + 1);
  const rest = [...others].map(([v, n]) => `${n} ${v}`).join(", ");
  // The head patch: `normalize` ×3 (timing and count), `fnv1a` about 3 % more instructions (its
  // count; `demo-cli stats` hashes too, but its count grows by far less than 1 %), nothing else.
  const countsExpected =
    countsRegressed.some((id) => id.endsWith("::normalize n16k")) &&
    countsRegressed.some((id) => id.endsWith("::checksum fnv1a")) &&
    countsRegressed.every((id) => /normalize|checksum|instructions\/stats/.test(id));
  const expected =
    report.verdict === "fail" &&
    regressed.length === 1 &&
    regressed[0] === SLOWED &&
    countsExpected &&
    claimsHold &&
    changedGolden.length === 1 &&
    changedGolden[0] === BROKEN_GOLDEN;
  const pct = (x: number | null | undefined): string =>
    x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;
  const hashCount = primary.find((b) => isCount(b) && b.id.endsWith("::checksum fnv1a"));
  const hashTime = primary.find((b) => b.id === CHECKSUM_TIMING);
  if (hashCount !== undefined && hashTime !== undefined)
    say(
      `fnv1a in head: ${pct(hashCount.change)} instructions (${hashCount.verdict}); its Criterion timing ${CHECKSUM_TIMING}: ${pct(hashTime.change)}, CI ${pct(hashTime.ci?.[0])} to ${pct(hashTime.ci?.[1])} (${hashTime.verdict}) — the count sees what the timing cannot`,
    );
  if ((others.get("inconclusive") ?? 0) > 0)
    say(
      "inconclusive = not regressed, but this machine's noise leaves room for a slowdown above the fail threshold (see each CI and the MDE); a quieter, pinned runner or more rounds turn these into 'unchanged'",
    );
  say(
    expected
      ? `as expected: the gate fails on ${SLOWED} (×3 work in head), on the instruction counts [${countsRegressed.join(", ")}] and on golden output ${BROKEN_GOLDEN}; no other timing or load regressed (${rest}); both claims hold`
      : `unexpected: verdict ${report.verdict}, timings regressed [${regressed.join(", ")}], counts regressed [${countsRegressed.join(", ")}], golden changed [${changedGolden.join(", ")}], claims [${claims.join(", ")}] (expected the timing ${SLOWED}, the counts of normalize and fnv1a, golden ${BROKEN_GOLDEN} and both claims holding)`,
  );
  say(`open ${path.relative(root, path.join(out, "comment.md"))} for the PR comment`);
  const page = await historyPage(report, commits);
  say(
    `open ${path.relative(root, page)} for the history page (the base and head commits, recorded as two pushes to main)`,
  );
  process.exitCode = expected ? 0 : 1;
} catch (error) {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 3;
}
