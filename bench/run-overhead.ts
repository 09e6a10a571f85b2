// benchgate run's own overhead on the demo: its wall time minus the time spent in the tools it
// starts (cargo, hyperfine, critcmp, git). Runs `npm run demo` (warm build cache unless
// --cold) and reads the timings.json that `benchgate run` writes beside the report.
//   node bench/run-overhead.ts [--runs 1] [--cold]
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { median, option, ROOT, writeResult } from "./support.ts";

interface Timings {
  wall_ms: number;
  tools_ms: number;
  own_ms: number;
  steps: { step: string; count: number; ms: number }[];
}

const runs = Number(option("runs", "1"));
const cold = process.argv.includes("--cold");
const all: Timings[] = [];
for (let i = 0; i < runs; i++) {
  if (cold) rmSync(path.join(ROOT, ".benchgate/demo/cache"), { recursive: true, force: true });
  const r = spawnSync(process.execPath, ["scripts/demo.ts"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    process.stderr.write(`demo exited with ${String(r.status)}\n`);
    process.exit(1);
  }
  all.push(
    JSON.parse(
      readFileSync(path.join(ROOT, ".benchgate/demo/out/timings.json"), "utf8"),
    ) as Timings,
  );
}
const own = all.map((t) => t.own_ms);
writeResult("run-overhead", {
  command: `node bench/run-overhead.ts --runs ${runs}${cold ? " --cold" : ""}`,
  runs,
  cold_build_cache: cold,
  wall_ms: all.map((t) => t.wall_ms),
  tools_ms: all.map((t) => t.tools_ms),
  own_ms: own,
  own_median_ms: median(own),
  own_share_of_wall: median(all.map((t) => t.own_ms / t.wall_ms)),
  last_run_steps: all[all.length - 1]?.steps,
});
