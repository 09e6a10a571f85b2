// `benchgate run --shard I/N` (docs/shards.md): which benchmarks this shard measures. Every shard
// computes the same split from the same lists, so no coordinator is needed: the units (one per
// Criterion benchmark, hyperfine or instructions command; one per suite that can only run whole:
// custom, gungraun, load) are ordered by a hash of their name and dealt out in turn, so each shard
// gets as many units as any other, give or take one. Benchmarks that are compared with each other
// on one side (a claim's pair, head-to-head variants) form one unit: their per-round ratio needs
// one machine. Base and head of a unit always run on the same shard, since a shard runs both.
// Pure: lists in, a round plan out. The digest lets `benchgate merge` prove that every shard
// split the same list (a machine that listed other benchmarks would leave some unmeasured); the
// list of dealt units, which shard.json carries, lets it recompute that digest and check that each
// shard measured exactly its own units.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { ShardTag as Shard } from "../core/shard-blocks.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";
import type { RoundPlan } from "./round-plan.ts";
import { Groups, listedIds } from "./bench-units.ts";

/** A unit of the run and the shard it was dealt to (shard.json's `units.dealt`). */
type DealtUnit = BenchShard["units"]["dealt"][number];
/** A benchmark of a unit (`suite` and `id`), or the suite a unit runs whole (`suite` alone). */
export type UnitMember = DealtUnit["members"][number];

/** A member's key: the text the split's digest is computed over. */
export function memberKey(member: UnitMember): string {
  return JSON.stringify(member.id === undefined ? [member.suite] : [member.suite, member.id]);
}

/**
 * The split as text, hashed for shard.json's `split`: the shard count and every member of every
 * unit with its shard, sorted, so the order the units were dealt in does not matter. `merge`
 * recomputes it from `units.dealt`: a shard relabelled to another count no longer matches it.
 */
export function canonicalSplit(count: number, dealt: readonly DealtUnit[]): string {
  const assignment = dealt
    .flatMap((u) => u.members.map((m) => [memberKey(m), u.shard] as const))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(["benchgate-shards-v1", count, assignment]);
}

/** 32-bit FNV-1a over UTF-16 code units: a stable, well-spread order that needs no crypto. */
function unitHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface ShardSplit {
  /** What this shard's rounds run: its suites narrowed to its benchmarks. */
  readonly plan: RoundPlan;
  /** Every unit of the run and the shard it went to, as text: hash it for the digest. */
  readonly canonical: string;
  readonly units: {
    readonly total: number;
    readonly mine: number;
    /** Every unit and the shard it went to, in the order they were dealt (shard.json's). */
    readonly dealt: DealtUnit[];
  };
  /** This shard's benchmarks known in advance, and the suites it runs whole. */
  readonly mine: { readonly ids: number; readonly whole: readonly string[] };
  /** Suites that could not be narrowed to exact ids: they run with their own filter. */
  readonly unfiltered: readonly string[];
}

/**
 * Splits the suites over `shard.count` shards and returns shard `shard.index`'s part. `listed`
 * holds each Criterion suite's ids (both sides' lists together); `together` pairs of ids that
 * must run on one machine.
 */
export function splitSuites(
  suites: readonly SuitePlan[],
  listed: ReadonlyMap<string, readonly string[]>,
  together: readonly (readonly [string, string])[],
  shard: Shard,
): ShardSplit {
  const unitOfId = new Map<string, string>();
  const units: { readonly key: string; readonly member: UnitMember }[] = [];
  const addUnit = (member: UnitMember): string => {
    const key = memberKey(member);
    units.push({ key, member });
    return key;
  };
  for (const suite of suites) {
    const ids = listedIds(suite, listed);
    if (ids === undefined) addUnit({ suite: suite.name });
    else for (const id of ids) unitOfId.set(id, addUnit({ suite: suite.name, id }));
  }
  const groups = new Groups();
  for (const [a, b] of together) {
    const [ua, ub] = [unitOfId.get(a), unitOfId.get(b)];
    if (ua !== undefined && ub !== undefined) groups.join(ua, ub);
  }
  const leaders = [...new Set(units.map((u) => groups.find(u.key)))].sort(
    (a, b) => unitHash(a) - unitHash(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const shardOfLeader = new Map(leaders.map((key, i) => [key, (i % shard.count) + 1]));
  const shardOf = (unit: string): number => shardOfLeader.get(groups.find(unit)) ?? 0;

  const active = new Set<string>();
  const whole: string[] = [];
  const unfiltered: string[] = [];
  const planned: SuitePlan[] = [];
  for (const suite of suites) {
    const ids = listedIds(suite, listed);
    if (ids === undefined) {
      if (shardOf(JSON.stringify([suite.name])) !== shard.index) continue;
      whole.push(suite.name);
      planned.push(suite);
      continue;
    }
    const mine = ids.filter((id) => shardOf(unitOfId.get(id) ?? "") === shard.index);
    if (mine.length === 0) continue;
    for (const id of mine) active.add(id);
    const narrowed = suiteKind(suite).narrow(suite, { ids: mine, active });
    if (narrowed === undefined) continue;
    if (narrowed.unfiltered === true) unfiltered.push(suite.name);
    planned.push(narrowed.plan);
  }
  // Joined units count once: they are dealt out as one, with all their members.
  const unitOf = new Map<string, DealtUnit>();
  for (const { key, member } of units) {
    const leader = groups.find(key);
    const unit = unitOf.get(leader);
    if (unit === undefined) unitOf.set(leader, { shard: shardOf(key), members: [member] });
    else unit.members.push(member);
  }
  const dealt = leaders.flatMap((key) => unitOf.get(key) ?? []);
  return {
    plan: { suites: planned, active, whole: new Set(whole) },
    canonical: canonicalSplit(shard.count, dealt),
    units: {
      total: dealt.length,
      mine: dealt.filter((u) => u.shard === shard.index).length,
      dealt,
    },
    mine: { ids: active.size, whole },
    unfiltered,
  };
}
