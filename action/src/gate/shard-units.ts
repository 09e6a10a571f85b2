// What a shard was dealt against what it says and what it measured (docs/shards.md). shard.json
// lists every unit of the run with the shard it went to (`units.dealt`), so a merge can check,
// without trusting the shard's own labels: that `split` is the digest of that list over the
// shard count the file claims (a shard of a 4-way split relabelled 1/1 no longer matches, so it
// cannot pass as a whole run), that `units.total` and `units.mine` are that list's, and that the
// shard's summaries hold a benchmark of every unit it was dealt and none of any other. A shard
// that measured only part of its units would otherwise decide over the rest as if the missing
// ones had never existed: inconclusive or a pass on partial data.
import path from "node:path";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import type { Sha256 } from "../ports/machine.ts";
import { plural } from "../runner/rounds-state.ts";
import { canonicalSplit, memberKey, type UnitMember } from "../runner/shard-plan.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";

/** How many names an error lists before "and N more": one line, however many are missing. */
const NAMED = 3;

const label = (s: BenchShard): string => `shard ${s.index}/${s.count}`;

/** A member as the errors name it. */
const describe = (m: UnitMember): string =>
  m.id === undefined
    ? `suite ${JSON.stringify(m.suite.slice(0, 120))}`
    : `${JSON.stringify(m.id.slice(0, 120))} (suite ${JSON.stringify(m.suite.slice(0, 120))})`;

function listed(members: readonly UnitMember[]): string {
  const named = members.slice(0, NAMED).map(describe).join(", ");
  return members.length > NAMED ? `${named} and ${members.length - NAMED} more` : named;
}

/**
 * shard.json agrees with itself: its units were dealt over its own shard count, its digest is
 * theirs, and its counts are theirs. `file` is shard.json, for the errors.
 */
export function checkDealt(shard: BenchShard, file: string, sha256: Sha256): void {
  const { dealt } = shard.units;
  // A fold, not Math.max(...list): the list may hold 100,000 units, too many arguments.
  const beyond = dealt.reduce((most, u) => Math.max(most, u.shard), 0);
  if (beyond > shard.count)
    throw new InputError(
      `says it is ${label(shard)}, but its units were dealt to ${beyond} shards: it is one shard of a larger split, not a whole run; merge the folders of every shard of that split`,
      { source: file },
    );
  if (sha256(new TextEncoder().encode(canonicalSplit(shard.count, dealt))) !== shard.split)
    throw new InputError(
      `${label(shard)}: "split" is not the digest of the units it lists dealt over ${plural(shard.count, "shard")}: the file was edited, or relabelled from a split into another number of shards`,
      { source: file },
    );
  const mine = dealt.filter((u) => u.shard === shard.index).length;
  if (shard.units.total !== dealt.length || shard.units.mine !== mine)
    throw new InputError(
      `${label(shard)} says it had ${shard.units.mine} of ${shard.units.total} units, but it lists ${mine} of ${dealt.length}`,
      { source: file },
    );
}

/**
 * The shard's summaries hold a benchmark of every unit dealt to it and none of another: a unit
 * measured on either side in any round counts (a benchmark only one side has is compared as in
 * any run), a suite run whole counts when any benchmark of it is there. `dir` is the folder.
 */
export function checkMeasured(
  shard: BenchShard,
  summaries: readonly SourcedSummary[],
  dir: string,
): void {
  const shardOf = new Map<string, number>();
  for (const unit of shard.units.dealt)
    for (const member of unit.members) shardOf.set(memberKey(member), unit.shard);
  const seen = new Set<string>();
  for (const { summary } of summaries)
    for (const b of summary.benchmarks) {
      // A benchmark of a suite that runs whole belongs to the suite's unit; any other to its own.
      const whole = memberKey({ suite: b.suite });
      const key = shardOf.has(whole) ? whole : memberKey({ suite: b.suite, id: b.id });
      const owner = shardOf.get(key);
      if (owner !== shard.index)
        throw new InputError(
          `${label(shard)} measured ${describe({ suite: b.suite, id: b.id })}, which ${owner === undefined ? "is in no shard's units: not a benchmark of this split" : `was dealt to shard ${owner}/${shard.count}`}`,
          { source: dir },
        );
      seen.add(key);
    }
  const mine = shard.units.dealt.filter((u) => u.shard === shard.index);
  const short = mine.filter((u) => u.members.some((m) => !seen.has(memberKey(m))));
  if (short.length === 0) return;
  const missing = short.flatMap((u) => u.members).filter((m) => !seen.has(memberKey(m)));
  const how =
    short.length === mine.length
      ? `measured none of its ${plural(mine.length, "unit")}`
      : `did not measure ${short.length} of its ${plural(mine.length, "unit")}`;
  throw new InputError(
    `${label(shard)} ${how} (missing: ${listed(missing)}): a shard that left out its units is an error, never a decision over the rest`,
    { source: path.join(dir, "summaries") },
  );
}
