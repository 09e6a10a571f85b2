// underpowered: the run could not have seen a regression of the size the gate fails on.
// timer-resolution: per-iteration times so small that timer granularity or loop overhead, not
// the code, is measured.
import { median } from "../core/statistics.ts";
import { formatChange } from "../render/format.ts";
import type { Entry, Smell } from "../schemas/report.gen.ts";
import { isTime, listIds, typical, type SideData } from "./smell-data.ts";

/** Per-iteration times below this are a few CPU cycles: usually the loop, or optimized away. */
const SUB_NS_LIMIT = 1;
/** A run whose samples take fewer distinct values than this share is quantized by the timer. */
const QUANTIZED_SHARE = 0.1;

/**
 * The MDE is the smallest slowdown that would be *confirmed*, so it always sits a little above
 * the fail threshold F (the estimate itself must reach F). A suite is underpowered when it
 * could miss a regression of twice the threshold.
 */
const UNDERPOWERED_FACTOR = 2;
/**
 * Beyond this many rounds, "add rounds" is not advice anyone can take, and a count of them
 * ("about 8064 rounds") reads as a precision the projection does not have.
 */
const MAX_SENSIBLE_ROUNDS = 100;

export function underpowered(
  entries: readonly Entry[],
  failThreshold: number,
  rounds: number,
): Smell[] {
  const limit = UNDERPOWERED_FACTOR * failThreshold;
  const weak = entries.filter((e) => e.mde !== null && e.mde > limit && e.verdict !== "regressed");
  if (weak.length === 0 || rounds < 2) return [];
  const mdes = weak.map((e) => e.mde as number);
  const m = median(mdes);
  // The part of the MDE above the threshold is noise and shrinks about as 1/√k: the rounds that
  // would bring the median MDE down to the limit.
  const needed = Math.ceil(rounds * ((m - failThreshold) / (limit - failThreshold)) ** 2);
  // The comment's formatter: from +1,000 % on an MDE is a ratio (×7.2), not "+135770058 %".
  const more =
    needed <= MAX_SENSIBLE_ROUNDS
      ? `about ${needed} rounds would bring the median to ${formatChange(limit)} on this machine`
      : `more rounds cannot reach that on this machine (it would take more than ${MAX_SENSIBLE_ROUNDS}): the runner is too noisy`;
  return [
    {
      kind: "underpowered",
      benchmarks: weak.map((e) => e.id),
      evidence: `${weak.length} of ${entries.length} benchmarks could miss a regression of ${formatChange(limit)} (twice the ${formatChange(failThreshold)} fail threshold) with ${rounds} rounds: median MDE ${formatChange(m)}, worst ${formatChange(Math.max(...mdes))}; ${more}`,
      hint: "more rounds, longer measurement times or a quieter, pinned runner (docs/runner-host.md) lower the minimum detectable effect",
    },
  ];
}

export function timerResolution(data: SideData, side: string): Smell[] {
  const tiny: string[] = [];
  const quantized: string[] = [];
  for (const b of data.values()) {
    if (!isTime(b) || b.sampleKind !== "per_iteration") continue;
    if (typical(b) < SUB_NS_LIMIT) tiny.push(b.id);
    else if (
      b.runs.some(
        (r) =>
          r.samples.length >= 20 && new Set(r.samples).size < QUANTIZED_SHARE * r.samples.length,
      )
    )
      quantized.push(b.id);
  }
  const smells: Smell[] = [];
  if (tiny.length > 0)
    smells.push({
      kind: "timer-resolution",
      benchmarks: tiny,
      evidence: `${side}: under ${SUB_NS_LIMIT} ns per iteration (a few CPU cycles): ${listIds(tiny)}`,
      hint: "the loop or nothing at all is being measured: wrap inputs and results in std::hint::black_box, or measure a larger unit of work",
    });
  if (quantized.length > 0)
    smells.push({
      kind: "timer-resolution",
      benchmarks: quantized,
      evidence: `${side}: samples take fewer than ${QUANTIZED_SHARE * 100} % distinct values, the mark of a coarse timer: ${listIds(quantized)}`,
      hint: "each sample is too short for the clock: raise the iterations per sample or the measurement time",
    });
  return smells;
}
