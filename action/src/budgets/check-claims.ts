// Claims checked on the head side (docs/budgets-and-golden.md, "Claims"). Pure: the caller passes
// the paired series (core/pairing.ts) and the statistics' confidence; claims come from the base
// side's config, like budgets.
//
// Each claim's speedup S (core/ratios.ts) gets an interval at level 1 − α/k, α = 1 − confidence,
// k the number of claims (Bonferroni): a claim's verdict is wrong only when its interval misses
// the true S, so the chance that any of the k verdicts is wrong is at most k · α/k = α.
//   lower end ≥ bound → holds; upper end < bound → false (fails the gate);
//   otherwise, or one round only (no interval) → inconclusive (does not fail).
// A claim that names a benchmark the run did not measure fails, so a typo or a renamed benchmark
// cannot switch it off; after a filtered run (`--filter`) it is unchecked instead.
import type { ClaimResult } from "../schemas/report.gen.ts";
import type { BenchmarkSeries } from "../core/pairing.ts";
import { capRatio, quoteId, speedup, type Speedup } from "../core/ratios.ts";
import type { Claim } from "./parse-claim.ts";

interface ClaimInput {
  /** Every benchmark's series, both sides (pairSummaries). */
  readonly series: readonly BenchmarkSeries[];
  /** The statistics' confidence (settings.confidence): α = 1 − confidence over all claims. */
  readonly confidence: number;
  /** The run measured a filtered subset: a claim on a benchmark not run is left unchecked. */
  readonly filtered?: boolean;
}

/** "8.1×", "0.953×", "1.23e+4×": three significant digits. */
export function formatFactor(x: number): string {
  return `${Number(x.toPrecision(3))}×`;
}

/** The level of each of k claims' intervals: 1 − (1 − confidence) / k. */
export function claimLevel(confidence: number, claims: number): number {
  return 1 - (1 - confidence) / Math.max(1, claims);
}

function percentLevel(level: number): string {
  return `${Number((level * 100).toPrecision(4))} %`;
}

function verdictOf(claim: Claim, s: Speedup): Pick<ClaimResult, "verdict" | "fails" | "reason"> {
  const bound = formatFactor(claim.bound);
  const measured = `${formatFactor(s.estimate)} over ${s.rounds} head round${s.rounds === 1 ? "" : "s"}`;
  if (s.interval === undefined)
    return {
      verdict: "inconclusive",
      fails: false,
      reason: `${measured}: one round gives no interval, so the claim is not decided`,
    };
  const [lower, upper] = s.interval;
  const interval = `[${formatFactor(lower)}, ${formatFactor(upper)}] (${percentLevel(s.level)})`;
  if (lower >= claim.bound)
    return {
      verdict: "holds",
      fails: false,
      reason: `${measured}, ${interval}: the lower end is at least ${bound}`,
    };
  if (upper < claim.bound)
    return {
      verdict: "false",
      fails: true,
      reason: `${measured}, ${interval}: even the upper end is below ${bound}`,
    };
  return {
    verdict: "inconclusive",
    fails: false,
    reason: `${measured}, ${interval}: the interval straddles ${bound}; more rounds would decide it`,
  };
}

function checkClaim(
  claim: Claim,
  byId: ReadonlyMap<string, BenchmarkSeries>,
  level: number,
  filtered: boolean,
): ClaimResult {
  const base = {
    faster: claim.faster,
    than: claim.than,
    by: claim.by,
    bound: capRatio(claim.bound),
    level,
  };
  const unchecked = (why: string, fails: boolean): ClaimResult => ({
    ...base,
    ratio: null,
    interval: null,
    rounds: 0,
    verdict: "unchecked",
    fails,
    reason: why,
  });
  const a = byId.get(claim.faster);
  const b = byId.get(claim.than);
  const absent = [claim.faster, claim.than].filter((id) => (byId.get(id)?.head.size ?? 0) === 0);
  if (a === undefined || b === undefined || absent.length > 0) {
    const names = absent.map(quoteId).join(" and ");
    const were = absent.length === 1 ? "was" : "were";
    return filtered
      ? unchecked(`not checked: this run was filtered and ${names} ${were} not measured`, false)
      : unchecked(
          `${names} ${were} not measured on head: check the id (claims name exact ids)`,
          true,
        );
  }
  const unitOf = { unit: a.unit, direction: a.direction };
  const s = speedup(a, b, "head", level);
  if (s.kind === "none") return { ...unchecked(`cannot check: ${s.reason}`, true), ...unitOf };
  return {
    ...base,
    ...unitOf,
    ratio: capRatio(s.estimate),
    interval: s.interval === undefined ? null : [capRatio(s.interval[0]), capRatio(s.interval[1])],
    rounds: s.rounds,
    ...verdictOf(claim, s),
  };
}

/** Checks every claim on head, in the order written. */
export function checkClaims(claims: readonly Claim[], input: ClaimInput): ClaimResult[] {
  if (claims.length === 0) return [];
  const level = claimLevel(input.confidence, claims.length);
  const byId = new Map(input.series.map((s) => [s.id, s]));
  return claims.map((c) => checkClaim(c, byId, level, input.filtered === true));
}
