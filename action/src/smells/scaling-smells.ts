// flat-scaling: a size parameter grows 10× or more but time barely follows, because a fixed
// cost inside the timed region dominates (a ~500 ms database cold start inside b.iter() made
// 100 → 1,000 → 10,000 events read 17 → 19 → 29 ms). complexity-change: the scaling exponent
// of a group differs between base and head (O(n) became O(n²)) even when small sizes agree.
import { mean, median, variance } from "../core/statistics.ts";
import { tQuantile } from "../core/distributions.ts";
import { formatChange } from "../render/format.ts";
import type { Smell } from "../schemas/report.gen.ts";
import {
  exponent,
  fixedCostFit,
  parameterizedGroups,
  type ParameterizedGroup,
} from "./parameterized-groups.ts";
import { shortId, typical, type SideData } from "./smell-data.ts";

/** Below this exponent time "grows far slower than the parameter". */
const FLAT_EXPONENT = 0.35;
/** The largest size must still be this much slower than the smallest: a fixed cost *hides* growth. */
const FLAT_MIN_GROWTH = 1.1;
/** Share of the smallest size's time that the fitted fixed cost must explain. */
const FLAT_FIXED_SHARE = 0.8;
/** Smallest exponent difference worth reporting (0.5 = one step of √n). */
const EXPONENT_CHANGE = 0.3;

const fmt = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

function timeText(ns: number): string {
  if (ns >= 1e9) return `${fmt(ns / 1e9)} s`;
  if (ns >= 1e6) return `${fmt(ns / 1e6)} ms`;
  if (ns >= 1e3) return `${fmt(ns / 1e3)} µs`;
  return `${fmt(ns)} ns`;
}

function sizesAndTimes(g: ParameterizedGroup): { sizes: number[]; times: number[] } {
  return { sizes: g.members.map((m) => m.size), times: g.members.map((m) => typical(m.benchmark)) };
}

export function flatScaling(head: SideData): Smell[] {
  const smells: Smell[] = [];
  for (const g of parameterizedGroups(head)) {
    const { sizes, times } = sizesAndTimes(g);
    const first = times[0] as number;
    const last = times[times.length - 1] as number;
    const e = exponent(sizes, times);
    const fit = fixedCostFit(sizes, times);
    const grows = last / first >= FLAT_MIN_GROWTH;
    const fixedDominates =
      fit.fixed > 0 && fit.perUnit > 0 && fit.fixed / first >= FLAT_FIXED_SHARE;
    if (!(e < FLAT_EXPONENT && grows && fixedDominates && fit.sseLinear < fit.sseLog)) continue;
    const series = g.members
      .map((m, i) => `${m.size} → ${timeText(times[i] as number)}`)
      .join(", ");
    smells.push({
      kind: "flat-scaling",
      benchmarks: g.members.map((m) => m.benchmark.id),
      evidence: `${shortId(g.label)}: sizes ${fmt(sizes[0] as number)}…${fmt(sizes[sizes.length - 1] as number)} (×${fmt((sizes[sizes.length - 1] as number) / (sizes[0] as number))}) but time only ×${fmt(last / first)} (${series}); exponent ${e.toFixed(2)}; a fixed cost of about ${timeText(fit.fixed)} per iteration explains ${Math.round((fit.fixed / first) * 100)} % of the smallest size`,
      hint: "a fixed cost inside the timed region hides the part that scales: move setup (a runtime, a connection, a database open) out of b.iter(), e.g. into iter_batched's setup",
    });
  }
  return smells;
}

/** The group's exponent in each round that has every size, by round. */
function exponentsByRound(g: ParameterizedGroup): Map<number, number> {
  const rounds = new Map<number, number[]>();
  g.members.forEach((m, i) => {
    for (const run of m.benchmark.runs) {
      const row = rounds.get(run.round) ?? new Array<number>(g.members.length).fill(Number.NaN);
      row[i] = run.value;
      rounds.set(run.round, row);
    }
  });
  const sizes = g.members.map((m) => m.size);
  const out = new Map<number, number>();
  for (const [round, times] of rounds)
    if (times.every((t) => t > 0 && Number.isFinite(t))) out.set(round, exponent(sizes, times));
  return out;
}

export function complexityChange(base: SideData, head: SideData): Smell[] {
  const baseGroups = new Map(parameterizedGroups(base).map((g) => [g.key, g]));
  const smells: Smell[] = [];
  for (const hg of parameterizedGroups(head)) {
    const bg = baseGroups.get(hg.key);
    if (bg === undefined) continue;
    const common = hg.members
      .filter((m) => bg.members.some((b) => b.size === m.size))
      .map((m) => m.size);
    if (common.length < 3) continue;
    const pick = (g: ParameterizedGroup): ParameterizedGroup => ({
      ...g,
      members: g.members.filter((m) => common.includes(m.size)),
    });
    const b = exponentsByRound(pick(bg));
    const h = exponentsByRound(pick(hg));
    const diffs = [...h].filter(([r]) => b.has(r)).map(([r, e]) => e - (b.get(r) as number));
    const eBase = median([...b.values()]);
    const eHead = median([...h.values()]);
    const d = diffs.length > 0 ? mean(diffs) : eHead - eBase;
    if (!(Math.abs(d) >= EXPONENT_CHANGE)) continue;
    // A steeper curve must make the largest size slower, a flatter one faster: adding a fixed
    // cost to every size also flattens the curve, and that is not a complexity improvement.
    const largest = (g: ParameterizedGroup): number => {
      const top = pick(g).members[pick(g).members.length - 1];
      return top === undefined ? Number.NaN : typical(top.benchmark);
    };
    if (Math.sign(largest(hg) - largest(bg)) !== Math.sign(d)) continue;
    // Replicated: the per-round differences must exclude 0 at 95 %; one run per side needs a
    // larger change.
    if (diffs.length >= 2) {
      const se = Math.sqrt(variance(diffs) / diffs.length);
      if (!(Math.abs(d) > tQuantile(0.975, diffs.length - 1) * se)) continue;
    } else if (Math.abs(d) < 2 * EXPONENT_CHANGE) continue;
    const sizes = pick(hg).members.map((m) => m.size);
    const perSize = pick(hg).members.map((m, i) => {
      const before = typical(pick(bg).members[i]?.benchmark ?? m.benchmark);
      // The comment's formatter: a complexity change at the largest size is often ×50, not +4900 %.
      return `${m.size}: ${formatChange(typical(m.benchmark) / before - 1)}`;
    });
    smells.push({
      kind: "complexity-change",
      benchmarks: pick(hg).members.map((m) => m.benchmark.id),
      evidence: `${shortId(hg.label)}: scaling exponent ${eBase.toFixed(2)} → ${eHead.toFixed(2)} over sizes ${fmt(sizes[0] as number)}…${fmt(sizes[sizes.length - 1] as number)}${diffs.length >= 2 ? ` (${diffs.length} paired rounds)` : ""}; change per size ${perSize.join(", ")}`,
      hint:
        d > 0
          ? "time now grows faster with the input: an algorithm's complexity changed, which small inputs hide; check the larger sizes"
          : "time now grows more slowly with the input (a complexity improvement)",
    });
  }
  return smells;
}
