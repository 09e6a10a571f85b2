// `npm run demo`: the gate end to end on the embedded example, with real tools and no GitHub.
// Builds examples/tiny-bench twice — base as it is, head with the `demo-slowdown` feature
// (count_lines does three passes: throughput/elements_and_bytes ×3 slower) — runs the Criterion
// benches in interleaved rounds (A B | B A | A B), ingests every run, runs critcmp, and compares.
// Everything lands in .benchgate/demo/. Exit 0 when the verdict is the expected one.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const crate = path.join(root, "examples/tiny-bench");
const out = path.join(root, ".benchgate/demo");
const criterionHome = path.join(out, "criterion");
const rounds = Number(process.env["BENCHGATE_DEMO_ROUNDS"] ?? "3");
const SLOWED = "throughput/elements_and_bytes";
const started = Date.now();

const env = {
  ...process.env,
  PATH: `${process.env["HOME"] ?? ""}/.cargo/bin:${process.env["PATH"] ?? ""}`,
};
const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const say = (text: string): void => void process.stderr.write(`demo [${elapsed()}] ${text}\n`);

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    env,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.error !== undefined)
    throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    const tail = `${String(result.stderr ?? "")}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${String(result.status)}\n${tail}`);
  }
  return String(result.stdout ?? "");
}

function benchgate(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, "action/src/cli/index.ts"), ...args], {
    encoding: "utf8",
    env,
  });
  return { status: r.status ?? 3, stdout: r.stdout, stderr: r.stderr };
}

// One target directory for both sides: only the crate itself differs (its feature set), so
// Cargo keeps both bench binaries side by side and builds the dependencies once.
const target = path.join(out, "target");
const sides = {
  base: { features: [] as string[] },
  head: { features: ["--features", "demo-slowdown"] },
} as const;
type Side = keyof typeof sides;

function cargoBench(side: Side, extra: string[]): string {
  return run(
    "cargo",
    ["bench", "--quiet", "--bench", "tiny", ...sides[side].features, "--", ...extra],
    { cwd: crate, env: { ...env, CARGO_TARGET_DIR: target, CRITERION_HOME: criterionHome } },
  );
}

try {
  rmSync(criterionHome, { recursive: true, force: true });
  mkdirSync(path.join(out, "summaries"), { recursive: true });
  say(`output folder: ${path.relative(root, out)}`);
  for (const side of ["base", "head"] as const) {
    say(
      `building ${side} (${side === "head" ? "with the demo-slowdown feature" : "as committed"})${side === "base" ? " — the first build takes a minute or two" : ""}`,
    );
    run("cargo", ["bench", "--quiet", "--bench", "tiny", "--no-run", ...sides[side].features], {
      cwd: crate,
      env: { ...env, CARGO_TARGET_DIR: target },
    });
  }

  const timing = ["--noplot", "--warm-up-time", "0.3", "--measurement-time", "0.8"];
  const summaries: Record<Side, string[]> = { base: [], head: [] };
  for (let r = 1; r <= rounds; r++) {
    const order: Side[] = r % 2 === 1 ? ["base", "head"] : ["head", "base"];
    for (const side of order) {
      say(`round ${r}/${rounds}: ${side}${side === order[0] ? " (runs first)" : ""}`);
      const startedAt = new Date().toISOString();
      cargoBench(side, [...timing, "--save-baseline", `${side}-${r}`]);
      const finishedAt = new Date().toISOString();
      const file = path.join(out, "summaries", `${side}-${r}.json`);
      const ingest = benchgate([
        "ingest",
        "criterion",
        criterionHome,
        "--baseline",
        `${side}-${r}`,
        "--side",
        side,
        "--round",
        String(r),
        "--suite",
        "tiny",
        "--started-at",
        startedAt,
        "--finished-at",
        finishedAt,
        "-o",
        file,
      ]);
      if (ingest.status !== 0) throw new Error(`ingest failed: ${ingest.stderr.trim()}`);
      summaries[side].push(file);
    }
  }

  say("critcmp: its table of the last round, for the comment");
  const critcmpFile = path.join(out, "critcmp.txt");
  const critcmp = spawnSync("critcmp", ["--target-dir", out, `base-${rounds}`, `head-${rounds}`], {
    encoding: "utf8",
    env,
  });
  writeFileSync(
    critcmpFile,
    critcmp.status === 0 ? critcmp.stdout : `critcmp failed: ${critcmp.stderr}`,
  );

  say("comparing");
  const report = path.join(out, "report.json");
  const comment = path.join(out, "comment.md");
  const result = benchgate([
    "compare",
    "--base",
    ...summaries.base,
    "--head",
    ...summaries.head,
    "--json",
    report,
    "--markdown",
    comment,
    "--critcmp",
    critcmpFile,
  ]);
  process.stdout.write(result.stdout);
  if (result.status === 2 || result.status === 3) throw new Error(result.stderr.trim());
  const verdicts = JSON.parse((await import("node:fs")).readFileSync(report, "utf8")) as {
    verdict: string;
    benchmarks: { id: string; verdict: string }[];
  };
  const regressed = verdicts.benchmarks.filter((b) => b.verdict === "regressed").map((b) => b.id);
  process.stdout.write(`\nwritten to ${path.relative(root, out)}/:
  report.json      the verdict, every benchmark with its CI and MDE (schemas/report.v1.schema.json)
  comment.md       the PR comment
  summaries/       one summary.json per side and round
  critcmp.txt      critcmp's table of the last round
  criterion/       Criterion's own tree (baselines base-1.. and head-1..)
`);
  const expected = verdicts.verdict === "fail" && regressed.length === 1 && regressed[0] === SLOWED;
  say(
    expected
      ? `as expected: the gate fails on exactly ${SLOWED} (slowed ×3 in head)`
      : `unexpected: verdict ${verdicts.verdict}, regressed [${regressed.join(", ")}] (expected only ${SLOWED})`,
  );
  process.exitCode = expected ? 0 : 1;
} catch (error) {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  if (!existsSync(crate)) say("examples/tiny-bench is missing: run from a benchgate checkout");
  process.exitCode = 3;
}
