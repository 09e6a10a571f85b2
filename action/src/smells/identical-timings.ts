// identical-timings: distinct benchmarks that all take the same time with almost no spread —
// what a shared fixed cost looks like (an async runtime built inside every timed iteration made
// list, invoke, search and info all measure 11.9–12.0 ms). Sizes of one parameterized group are
// not "distinct": that case is flat-scaling's.
import type { Smell } from "../schemas/report.gen.ts";
import { isTime, typical, withinRunCv, type BenchmarkRuns, type SideData } from "./smell-data.ts";

/** At least this many distinct benchmarks… */
const IDENTICAL_MIN_MEMBERS = 3;
/** …whose typical times are all within this ratio (max/min)… */
const IDENTICAL_MAX_RATIO = 1.03;
/** …each with a within-run spread (robust CV) at most this… */
const IDENTICAL_MAX_CV = 0.03;
/** …and slower than this: nanosecond-scale clusters are common and say nothing. */
const IDENTICAL_MIN_NS = 1000;
/**
 * In a large suite some distinct benchmarks land within 3 % of each other by chance. A cluster
 * counts only when at most this many clusters of its size were expected by chance: with n
 * candidates spread over a log-time range L, about C(n, m) · m · (w/L)^(m−1) groups of m fall
 * in a window w (each member within w of the fastest). L is at least three decades.
 */
const IDENTICAL_MAX_CHANCE = 0.01;
const MIN_LOG_RANGE = Math.log(1000);

function choose(n: number, m: number): number {
  let c = 1;
  for (let i = 0; i < m; i++) c = (c * (n - i)) / (i + 1);
  return c;
}

/** Expected number of chance clusters of size m among n candidates over log range L. */
function chanceClusters(n: number, m: number, logRange: number): number {
  const w = Math.log(IDENTICAL_MAX_RATIO);
  return choose(n, m) * m * (w / Math.max(logRange, MIN_LOG_RANGE)) ** (m - 1);
}

/** The id without a trailing number, so `parse/100` and `parse/1000` count as one function. */
function functionKey(b: BenchmarkRuns): string {
  return b.id.replace(/\/\d+(\.\d+)?$/, "");
}

function timeText(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e3).toPrecision(3)} µs`;
}

export function identicalTimings(data: SideData): Smell[] {
  const bySuite = new Map<string, { b: BenchmarkRuns; t: number; cv: number }[]>();
  for (const b of data.values()) {
    if (!isTime(b) || b.sampleKind !== "per_iteration") continue;
    const cv = withinRunCv(b);
    const t = typical(b);
    if (cv === undefined || cv > IDENTICAL_MAX_CV || !(t >= IDENTICAL_MIN_NS)) continue;
    const list = bySuite.get(b.suite) ?? [];
    list.push({ b, t, cv });
    bySuite.set(b.suite, list);
  }
  const smells: Smell[] = [];
  for (const candidates of bySuite.values()) {
    candidates.sort((x, y) => x.t - y.t);
    const logRange = Math.log(
      (candidates[candidates.length - 1]?.t ?? 1) / (candidates[0]?.t ?? 1),
    );
    let start = 0;
    while (start < candidates.length) {
      let end = start + 1;
      const floor = (candidates[start] as { t: number }).t;
      while (
        end < candidates.length &&
        (candidates[end] as { t: number }).t / floor <= IDENTICAL_MAX_RATIO
      )
        end++;
      const cluster = candidates.slice(start, end);
      const functions = new Set(cluster.map((c) => functionKey(c.b)));
      if (
        functions.size >= IDENTICAL_MIN_MEMBERS &&
        chanceClusters(candidates.length, functions.size, logRange) <= IDENTICAL_MAX_CHANCE
      ) {
        const lo = cluster[0] as { t: number };
        const hi = cluster[cluster.length - 1] as { t: number };
        const maxCv = Math.max(...cluster.map((c) => c.cv));
        smells.push({
          kind: "identical-timings",
          benchmarks: cluster.map((c) => c.b.id),
          evidence: `${cluster.length} different benchmarks all take ${timeText(lo.t)}–${timeText(hi.t)} (within ${((hi.t / lo.t - 1) * 100).toFixed(1)} % of each other), each with a within-run spread of at most ${(maxCv * 100).toFixed(1)} %`,
          hint: "a shared fixed cost dominates what is measured: is something (an async runtime, a client, a temp dir) created inside the timed closure? Build it once outside b.iter()",
        });
        start = end;
      } else start += 1;
    }
  }
  return smells;
}
