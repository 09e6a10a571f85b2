// Which series of a history are secondary, and whose: the page draws one card per benchmark
// with its secondary counts folded under the primary chart, instead of one equal chart each
// (a gungraun benchmark brings up to 20 cache, branch and heap counts beside its instructions).
//
// history.json does not record the report's `secondary` flag, so it is read from the ids the
// ingest gives secondary entries (docs/formats.md): `<id> [<metric>]` beside `<id>` (gungraun,
// cachegrind), and a load endpoint's `E p95`, `E p99.9` and `E errors` beside its `E req/s`,
// `E p50` or `E p99`. A `[metric]` series whose primary is not in the history (a benchmark that
// ran only DHAT) is grouped under the first of its siblings, so it still makes one card. Pure.

interface SeriesKey {
  readonly suite: string;
  readonly id: string;
}

const BRACKET = /^(.+) \[[^\]]+\]$/su;
const LOAD_SECONDARY = /^(.+) (p95|p99\.9|errors)$/su;
const LOAD_PRIMARIES = ["req/s", "p50", "p99"] as const;

/**
 * Per series, the index of the series whose card it is drawn in, or null for a card's lead
 * (a primary, or a secondary with no primary to go under).
 */
export function secondaryLeads(series: readonly SeriesKey[]): (number | null)[] {
  const index = new Map<string, number>();
  series.forEach((s, i) => {
    const key = keyOf(s.suite, s.id);
    if (!index.has(key)) index.set(key, i);
  });
  const leads: (number | null)[] = series.map(() => null);
  // Orphans sharing a base id: the first of them leads the others.
  const orphanLead = new Map<string, number>();
  series.forEach((s, i) => {
    const bracket = BRACKET.exec(s.id);
    if (bracket !== null) {
      const base = keyOf(s.suite, bracket[1] as string);
      const primary = index.get(base);
      if (primary !== undefined && primary !== i) {
        leads[i] = primary;
        return;
      }
      const first = orphanLead.get(base);
      if (first === undefined) orphanLead.set(base, i);
      else leads[i] = first;
      return;
    }
    const load = LOAD_SECONDARY.exec(s.id);
    if (load !== null) {
      for (const metric of LOAD_PRIMARIES) {
        const primary = index.get(keyOf(s.suite, `${load[1] as string} ${metric}`));
        if (primary !== undefined) {
          leads[i] = primary;
          return;
        }
      }
    }
  });
  return leads;
}

function keyOf(suite: string, id: string): string {
  return JSON.stringify([suite, id]);
}
