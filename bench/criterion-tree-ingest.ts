// Ingest + compare of a large Criterion tree, side by side with critcmp on the same tree: the
// synthetic 1,000 benchmarks × 5 rounds × 2 sides that a `benchgate run` leaves behind
// (bench/criterion-tree.ts), generated into a temp dir. Four ways, interleaved (each run of the
// loop times all of them, in a rotating order), median of --runs after one warm-up of each:
//   (a) critcmp --target-dir T base-5 head-5                     (one pair, estimates only)
//   (b) benchgate compare --criterion T                           (all 10 rounds, one walk, one process)
//   (c) benchgate ingest criterion T --baselines '*' --out-dir D  (all 10, one walk) + compare
//   (d) 10 × benchgate ingest criterion T --baseline NAME         (the way before) + compare
// benchgate is the bundle (dist/benchgate.js: `npm run build` first, or --cli FILE). Checks
// that (c) and (d) wrote the same summaries, and (b), (c) and (d) the same verdicts.
// Usage: node bench/criterion-tree-ingest.ts [--benchmarks 1000] [--rounds 5] [--runs 5] [--cli dist/benchgate.js]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { writeCriterionTree } from "./criterion-tree.ts";
import { ROOT, median, option, writeResult } from "./support.ts";

const benchmarks = Number(option("benchmarks", "1000"));
const rounds = Number(option("rounds", "5"));
const runs = Number(option("runs", "5"));
const cli = path.resolve(ROOT, option("cli", "dist/benchgate.js"));
const critcmp = path.join(process.env["HOME"] ?? "", ".cargo/bin/critcmp");

const work = mkdtempSync(path.join(tmpdir(), "benchgate-tree-ingest-"));
const target = path.join(work, "target");

/** One command: argv, and the exit codes that mean it worked (compare exits 1 on a regression). */
interface Step {
  readonly argv: readonly [string, ...string[]];
  readonly ok: readonly number[];
}

const benchgate = (...args: string[]): Step => ({
  argv: [process.execPath, cli, ...args],
  ok: [0],
});
const compareInto = (dir: string): Step => {
  const list = (side: string): string[] =>
    Array.from({ length: rounds }, (_, i) => path.join(dir, `${side}-${i + 1}.json`));
  return {
    ...benchgate(
      "compare",
      "--base",
      ...list("base"),
      "--head",
      ...list("head"),
      "--json",
      path.join(dir, "report.json"),
      "--markdown",
      path.join(dir, "comment.md"),
      "--quiet",
    ),
    ok: [0, 1],
  };
};

const onePass = path.join(work, "one-pass");
const perBaseline = path.join(work, "per-baseline");
mkdirSync(perBaseline);
const ways: Record<string, { readonly ingest: Step[]; readonly compare: Step | undefined }> = {
  critcmp: {
    ingest: [
      { argv: [critcmp, "--target-dir", target, `base-${rounds}`, `head-${rounds}`], ok: [0] },
    ],
    compare: undefined,
  },
  "compare --criterion": {
    ingest: [],
    compare: {
      ...benchgate(
        "compare",
        "--criterion",
        target,
        "--json",
        path.join(work, "criterion-report.json"),
        "--quiet",
      ),
      ok: [0, 1],
    },
  },
  "one pass": {
    ingest: [benchgate("ingest", "criterion", target, "--baselines", "*", "--out-dir", onePass)],
    compare: compareInto(onePass),
  },
  "per baseline": {
    ingest: Array.from({ length: rounds }, (_, i) =>
      ["base", "head"].map((side) =>
        benchgate(
          "ingest",
          "criterion",
          target,
          "--baseline",
          `${side}-${i + 1}`,
          "--side",
          side,
          "--round",
          String(i + 1),
          "-o",
          path.join(perBaseline, `${side}-${i + 1}.json`),
        ),
      ),
    ).flat(),
    compare: compareInto(perBaseline),
  },
};

/** Wall time of the steps in sequence, in ms (spawn included: that is what a user waits for). */
function time(steps: readonly Step[]): number {
  const t0 = performance.now();
  for (const step of steps) {
    const r = spawnSync(step.argv[0], step.argv.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
    if (r.status === null || !step.ok.includes(r.status)) {
      throw new Error(`${step.argv.join(" ")} exited ${String(r.status)}: ${String(r.stderr)}`);
    }
  }
  return performance.now() - t0;
}

try {
  const t0 = performance.now();
  const written = writeCriterionTree(target, { benchmarks, rounds, seed: 1 });
  const du = spawnSync("du", ["-sk", target], { encoding: "utf8" });
  const diskMiB = Number(du.stdout.split("\t")[0]) / 1024;
  process.stderr.write(
    `tree: ${benchmarks} benchmarks × ${written.baselines.length} baselines, ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB of JSON, ${diskMiB.toFixed(0)} MiB on disk (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );

  const names = Object.keys(ways);
  const times = new Map(names.map((n) => [n, { ingest: [] as number[], total: [] as number[] }]));
  for (let run = 0; run <= runs; run++) {
    // Run 0 warms the page cache and is not counted; then each run starts one later in the list.
    for (let k = 0; k < names.length; k++) {
      const name = names[(run + k) % names.length] as string;
      const way = ways[name] as (typeof ways)[string];
      const ingestMs = time(way.ingest);
      const compareMs = way.compare === undefined ? 0 : time([way.compare]);
      if (run === 0) continue;
      const t = times.get(name) as { ingest: number[]; total: number[] };
      t.ingest.push(ingestMs);
      t.total.push(ingestMs + compareMs);
    }
  }
  // The same documents (--out-dir writes them on one line, -o indented).
  const doc = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));
  const identical = written.baselines.every(
    (b) =>
      JSON.stringify(doc(path.join(onePass, `${b}.json`))) ===
      JSON.stringify(doc(path.join(perBaseline, `${b}.json`))),
  );
  if (!identical) throw new Error("one-pass and per-baseline summaries differ");
  const verdicts = (file: string): string =>
    JSON.stringify(
      (doc(file) as { benchmarks: { id: string; verdict: string }[] }).benchmarks.map((e) => [
        e.id,
        e.verdict,
      ]),
    );
  const reports = [
    path.join(work, "criterion-report.json"),
    path.join(onePass, "report.json"),
    path.join(perBaseline, "report.json"),
  ].map(verdicts);
  if (new Set(reports).size !== 1) throw new Error("the three ways reached different verdicts");

  const critcmpMs = median(times.get("critcmp")?.total ?? []);
  const results = names.map((name) => {
    const t = times.get(name) as { ingest: number[]; total: number[] };
    return {
      name,
      median_ms: Math.round(median(t.total)),
      ingest_median_ms: Math.round(median(t.ingest)),
      compare_median_ms: Math.round(median(t.total.map((x, i) => x - (t.ingest[i] as number)))),
      runs_ms: t.total.map(Math.round),
      vs_critcmp: Number((median(t.total) / critcmpMs).toFixed(1)),
    };
  });
  writeResult("criterion-tree-ingest", {
    tree: {
      benchmarks,
      baselines: written.baselines.length,
      files: written.files,
      json_mb: Number((written.bytes / 1e6).toFixed(1)),
      disk_mib: Math.round(diskMiB),
    },
    runs,
    cli: path.relative(ROOT, cli),
    identical_summaries: identical,
    results,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
