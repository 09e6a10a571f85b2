// Would a CPU clock (user + system time) instead of wall time make a CPU-bound benchmark less
// noisy on a shared machine? An A/A test: the demo crate's `demo-cli stats` built once and
// copied to two paths, timed by hyperfine in interleaved rounds (A B | B A | …), and each
// round's log ratio read twice: from the median wall time of its runs, and from hyperfine's mean
// user + system time. Prints both spreads (SD and 1.4826·MAD of the per-round log ratios) and the
// processes' median CPU share. docs/statistics.md ("Contention") quotes the result.
//   node bench/cpu-clock.ts [--rounds 40] [--runs 5] [--count 400000]
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { madScale } from "../action/src/core/robust.ts";
import { median, option, ROOT, writeResult } from "./support.ts";

const rounds = Number(option("rounds", "40"));
const runs = Number(option("runs", "5"));
const count = option("count", "400000");
const work = mkdtempSync(path.join(tmpdir(), "benchgate-cpu-clock-"));
const env = {
  ...process.env,
  PATH: `${process.env["HOME"] ?? ""}/.cargo/bin:${process.env["PATH"] ?? ""}`,
};

function run(argv: string[], cwd: string): string {
  const r = spawnSync(argv[0] as string, argv.slice(1), { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

interface HyperfineResult {
  readonly median: number;
  readonly mean: number;
  readonly user: number;
  readonly system: number;
}

try {
  const target = path.join(work, "target");
  run(
    ["cargo", "build", "--release", "--quiet", "--bin", "demo-cli", "--target-dir", target],
    path.join(ROOT, "examples/demo-crate"),
  );
  for (const side of ["a", "b"])
    copyFileSync(path.join(target, "release/demo-cli"), path.join(work, side));
  const wall: number[] = [];
  const cpu: number[] = [];
  const share: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const got = new Map<string, HyperfineResult>();
    for (const side of r % 2 === 1 ? ["a", "b"] : ["b", "a"]) {
      const json = path.join(work, `${side}-${r}.json`);
      run(
        [
          "hyperfine",
          "-N",
          "--runs",
          String(runs),
          "--warmup",
          "1",
          "--export-json",
          json,
          `./${side} stats --count ${count}`,
        ],
        work,
      );
      got.set(
        side,
        (JSON.parse(readFileSync(json, "utf8")) as { results: HyperfineResult[] })
          .results[0] as HyperfineResult,
      );
    }
    const a = got.get("a") as HyperfineResult;
    const b = got.get("b") as HyperfineResult;
    wall.push(Math.log(b.median / a.median));
    cpu.push(Math.log((b.user + b.system) / (a.user + a.system)));
    share.push((a.user + a.system) / a.mean, (b.user + b.system) / b.mean);
  }
  const sd = (xs: readonly number[]): number => {
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
  };
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const result = {
    command: `node bench/cpu-clock.ts --rounds ${rounds} --runs ${runs} --count ${count}`,
    rounds,
    load_average_at_end: load,
    median_cpu_share: median(share),
    wall: { sd: sd(wall), robust_sd: madScale(wall) },
    cpu: { sd: sd(cpu), robust_sd: madScale(cpu) },
  };
  console.log(
    `${rounds} A/A rounds, load ${load}, median CPU share ${result.median_cpu_share.toFixed(2)}: ` +
      `wall SD ${result.wall.sd.toFixed(4)} (robust ${result.wall.robust_sd.toFixed(4)}), ` +
      `user+system SD ${result.cpu.sd.toFixed(4)} (robust ${result.cpu.robust_sd.toFixed(4)})`,
  );
  writeResult("cpu-clock", result);
} finally {
  rmSync(work, { recursive: true, force: true });
}
