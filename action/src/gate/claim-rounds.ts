// Sequential rounds and claims: the stopping rule settles each benchmark on its own base→head
// change, but a claim compares two benchmarks on head, and its interval needs rounds of its own.
// After each look, a claim whose interval still straddles its bound keeps both of its
// benchmarks in the next round (up to max-rounds). Their verdicts do not change: compare replays
// the stopping rule and decides each benchmark on the rounds up to where it stopped, while the
// claim uses every round in which both ran (docs/budgets-and-golden.md, "Claims").
import { checkClaims } from "../budgets/check-claims.ts";
import type { Claim } from "../budgets/parse-claim.ts";
import { pairSummaries, type SourcedSummary } from "../core/pairing.ts";
import type { NextRound } from "../core/sequential.ts";

/** `next` with the benchmarks of every undecided claim kept open, unless the rounds are over. */
export function keepClaimsOpen(
  next: NextRound,
  claims: readonly Claim[],
  summaries: { readonly base: readonly SourcedSummary[]; readonly head: readonly SourcedSummary[] },
  rounds: { readonly last: number; readonly max: number; readonly confidence: number },
): NextRound {
  if (claims.length === 0 || rounds.last >= rounds.max) return next;
  const { series } = pairSummaries(summaries.base, summaries.head, { unpaired: false });
  const undecided = checkClaims(claims, { series, confidence: rounds.confidence }).filter(
    (c) => c.verdict === "inconclusive",
  );
  const ids = new Set(undecided.flatMap((c) => [c.faster, c.than]));
  const kept = [...ids].filter((id) => !next.active.has(id));
  if (kept.length === 0) return next;
  return {
    ...next,
    active: new Set([...next.active, ...kept]),
    line: `${next.line}; ${kept.length} more kept for ${undecided.length} undecided claim${undecided.length === 1 ? "" : "s"}`,
  };
}
