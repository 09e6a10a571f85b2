// Wall time of benchgate's whole path (ingest every run + compare + render) next to critcmp on
// the same Criterion tree, with hyperfine. Uses the bundle (npm run build first).
// Usage: node bench/wall-time.ts [--suite aa-bs58-0.5.1] [--runs 10]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, option, writeResult } from "./support.ts";

const suite = option("suite", "aa-bs58-0.5.1");
const runs = option("runs", "10");
const dir = path.join(ROOT, "bench/data", suite);
const k = (JSON.parse(readFileSync(path.join(dir, "rounds.json"), "utf8")) as unknown[]).length;
const work = mkdtempSync(path.join(tmpdir(), "benchgate-wall-"));
const node = path.join(ROOT, "node_modules/.bin/node");
const cli = `${node} ${path.join(ROOT, "dist/benchgate.js")}`;
const tree = path.join(dir, "criterion");

function script(name: string, body: string): string {
  const file = path.join(work, `${name}.sh`);
  writeFileSync(file, `set -e\n${body}\n`);
  return `bash ${file}`;
}

const ingest = (side: string, r: number) =>
  `${cli} ingest criterion '${tree}' --baseline ${side}-${r} --side ${side} --round ${r} -o ${work}/${side}-${r}.json 2>/dev/null`;
const oneRound = script(
  "benchgate-1",
  `${ingest("base", 1)}\n${ingest("head", 1)}\n${cli} compare --base ${work}/base-1.json --head ${work}/head-1.json --json ${work}/r.json --markdown ${work}/c.md --quiet || [ $? -le 1 ]`,
);
const allLines: string[] = [];
for (let r = 1; r <= k; r++) allLines.push(ingest("base", r), ingest("head", r));
const list = (side: string) =>
  Array.from({ length: k }, (_, i) => `${work}/${side}-${i + 1}.json`).join(" ");
allLines.push(
  `${cli} compare --base ${list("base")} --head ${list("head")} --json ${work}/r.json --markdown ${work}/c.md --quiet || [ $? -le 1 ]`,
);
const allRounds = script("benchgate-all", allLines.join("\n"));
const critcmp = `critcmp --target-dir '${dir}' base-1 head-1`;
const exported = path.join(work, "hyperfine.json");

try {
  const hf = spawnSync(
    "hyperfine",
    [
      "--warmup",
      "1",
      "--runs",
      runs,
      "-i",
      "--export-json",
      exported,
      "-n",
      "critcmp (1 pair)",
      critcmp,
      "-n",
      "benchgate ingest×2 + compare (1 pair)",
      oneRound,
      "-n",
      `benchgate ingest×${2 * k} + compare (${k} rounds)`,
      allRounds,
    ],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PATH: `${process.env["HOME"] ?? ""}/.cargo/bin:${process.env["PATH"] ?? ""}`,
      },
    },
  );
  if (hf.status !== 0) throw new Error("hyperfine failed");
  const { results } = JSON.parse(readFileSync(exported, "utf8")) as {
    results: { command: string; median: number; mean: number; stddev: number | null }[];
  };
  writeResult(`wall-time-${suite}`, {
    suite,
    rounds: k,
    results: results.map((r) => ({
      name: r.command,
      median_ms: r.median * 1000,
      mean_ms: r.mean * 1000,
      stddev_ms: (r.stddev ?? 0) * 1000,
    })),
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
