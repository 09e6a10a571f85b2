// Joining the folders of a sharded run (`benchgate run --shard I/N` on N machines) into what one
// decision reads: every shard's summaries, shard 1's golden results, the critcmp tables one after
// the other. The set must be whole and must not overlap: a missing or failed shard is an error,
// never a pass on the shards that came back, and so is a benchmark two shards measured or a
// shard that split another list of benchmarks. The folders may be given in any order: they are
// sorted by shard, so the merged report is the same. Each folder is read as hostile data, as the
// report job reads a measure job's artifact (measured-results.ts), and each shard must have
// measured exactly the units it was dealt (shard-units.ts): a shard that came back with part of
// its benchmarks is as much an error as a shard that did not come back.
import path from "node:path";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import type { Machine } from "../ports/machine.ts";
import { readShardFile } from "../ingest/read-document.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";
import type { GateTarget } from "./publish.ts";
import {
  readCritcmpTable,
  readSummaryFolder,
  type ExpectedRounds,
  type MeasuredResults,
} from "./measured-results.ts";
import { checkDealt, checkMeasured } from "./shard-units.ts";
import { whereKey, wheresBy } from "./measured-where.ts";

export const SHARD_FILE = "shard.json";

export interface ShardFolder {
  readonly dir: string;
  readonly shard: BenchShard;
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly critcmpTable?: string;
}

/** What a merge checks the shards against; each part undefined: whatever the shards agree on. */
export interface MergeExpectation {
  /** The shard count the workflow's matrix has (trusted), not the one the artifacts say. */
  readonly count?: number;
  readonly commits?: GateTarget;
  readonly rounds?: ExpectedRounds;
  /** The filter the run had (trusted), or null for none: the shards must have run with it. */
  readonly filter?: string | null;
}

/** What reading and checking the folders needs: the files, and sha256 to check each split. */
type ShardReading = Pick<Machine, "reader" | "sha256">;

/** A shard folder's shard.json alone (the merge reads the base commit from it first). */
export async function readShardManifest(reader: FileReader, dir: string): Promise<BenchShard> {
  const file = path.join(dir, SHARD_FILE);
  const kind = await reader.kindOf(file);
  if (kind !== "file")
    throw new InputError(
      kind === undefined
        ? `no ${SHARD_FILE}: not the output of \`benchgate run --shard I/N\` (or its upload failed)`
        : `${SHARD_FILE} is not a regular file`,
      { source: dir },
    );
  return readShardFile(reader, file);
}

/** One shard's folder: its shard.json, then its summaries checked against it. */
async function readShardFolder(
  reader: FileReader,
  dir: string,
  expected: MergeExpectation,
): Promise<ShardFolder> {
  const shard = await readShardManifest(reader, dir);
  const commits = expected.commits ?? { baseSha: shard.base, headSha: shard.head };
  if (commits.baseSha !== shard.base || commits.headSha !== shard.head)
    throw new InputError(
      `shard ${shard.index}/${shard.count} measured base ${shard.base.slice(0, 12)} and head ${shard.head.slice(0, 12)}, but this report is for base ${commits.baseSha.slice(0, 12)} and head ${commits.headSha.slice(0, 12)}`,
      { source: path.join(dir, SHARD_FILE) },
    );
  const rounds = expected.rounds ?? roundsOf(shard);
  const tag = { index: shard.index, count: shard.count };
  const { base, head } = await readSummaryFolder(reader, dir, commits, { ...rounds, shard: tag });
  const critcmpTable = await readCritcmpTable(reader, dir);
  return { dir, shard, base, head, ...(critcmpTable === undefined ? {} : { critcmpTable }) };
}

/** The rounds a shard says it was run with: a fixed count, or rounds: auto's design. */
function roundsOf(shard: BenchShard): ExpectedRounds {
  const { sequential } = shard;
  return sequential === undefined
    ? { rounds: shard.rounds }
    : { rounds: sequential.max_rounds, sequential: { minRounds: sequential.min_rounds } };
}

const design = (s: BenchShard): string =>
  s.sequential === undefined
    ? `${s.rounds} rounds`
    : `rounds: auto (min-rounds ${s.sequential.min_rounds}, max-rounds ${s.sequential.max_rounds})`;

const label = (s: BenchShard): string => `shard ${s.index}/${s.count}`;
const filterOf = (s: BenchShard): string | null => s.filter ?? null;
const withFilter = (filter: string | null): string =>
  filter === null ? "without a filter" : `with --filter ${JSON.stringify(filter.slice(0, 200))}`;

/** The same count, split, commits and rounds everywhere; every index once. */
function checkWhole(folders: readonly ShardFolder[], expected: MergeExpectation): void {
  const first = folders[0];
  if (first === undefined) throw new InputError("merge needs the folders of every shard");
  const count = expected.count ?? first.shard.count;
  const byIndex = new Map<number, ShardFolder>();
  for (const f of folders) {
    const at = { source: path.join(f.dir, SHARD_FILE) };
    if (f.shard.count !== count)
      throw new InputError(
        `is ${label(f.shard)}, but ${expected.count === undefined ? `${first.dir} is ${label(first.shard)}` : `the run was split into ${count} shards`}`,
        at,
      );
    const twice = byIndex.get(f.shard.index);
    if (twice !== undefined)
      throw new InputError(
        `${label(f.shard)} is given twice (also ${twice.dir}): the shards' outputs overlap`,
        at,
      );
    byIndex.set(f.shard.index, f);
    if (f.shard.split !== first.shard.split)
      throw new InputError(
        `${label(f.shard)} split another list of benchmarks than ${label(first.shard)} (${first.dir}): its machine listed other benchmarks, or it ran another config; merging them could leave benchmarks unmeasured`,
        at,
      );
    if (f.shard.base !== first.shard.base || f.shard.head !== first.shard.head)
      throw new InputError(
        `${label(f.shard)} measured base ${f.shard.base.slice(0, 12)} and head ${f.shard.head.slice(0, 12)}, ${label(first.shard)} (${first.dir}) base ${first.shard.base.slice(0, 12)} and head ${first.shard.head.slice(0, 12)}: not one run`,
        at,
      );
    // A fixed count is the same everywhere; with rounds: auto each shard's looks stopped it on
    // its own, so only the design must agree.
    if (design(f.shard) !== design(first.shard))
      throw new InputError(
        `${label(f.shard)} ran ${design(f.shard)}, ${label(first.shard)} ${design(first.shard)}`,
        at,
      );
    // Another filter is another set of units, and another set of budgets left unchecked.
    const filter = expected.filter === undefined ? filterOf(first.shard) : expected.filter;
    if (filterOf(f.shard) !== filter)
      throw new InputError(
        `${label(f.shard)} ran ${withFilter(filterOf(f.shard))}, but ${expected.filter === undefined ? `${label(first.shard)} (${first.dir}) ran ${withFilter(filter)}` : `this report is for a run ${withFilter(filter)}`}: not one run`,
        at,
      );
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new InputError(
      `shard ${missing.map((i) => `${i}/${count}`).join(", ")} ${missing.length === 1 ? "is" : "are"} missing (given: ${[
        ...byIndex.keys(),
      ]
        .sort((a, b) => a - b)
        .map((i) => `${i}/${count}`)
        .join(
          ", ",
        )}): a missing or failed shard is an error, never a pass on the shards that came back`,
    );
}

/** No benchmark measured by two shards. */
function checkDisjoint(folders: readonly ShardFolder[]): void {
  const owner = new Map<string, ShardFolder>();
  for (const f of folders) {
    const ids = new Set<string>();
    for (const s of [...f.base, ...f.head]) for (const b of s.summary.benchmarks) ids.add(b.id);
    for (const id of ids) {
      const other = owner.get(id);
      if (other !== undefined)
        throw new InputError(
          `benchmark ${JSON.stringify(id.slice(0, 120))} was measured by ${label(other.shard)} (${other.dir}) and ${label(f.shard)}: the shards' outputs overlap`,
          { source: f.dir },
        );
      owner.set(id, f);
    }
  }
}

/**
 * Every shard's Where (shard.json's `where`, read through the schema), by (suite, id). A shard
 * may only speak of benchmarks it measured: one that names another shard's is refused, as an
 * overlap of the shards' outputs is.
 */
function shardWheres(folders: readonly ShardFolder[]): MeasuredResults["wheres"] {
  const entries = folders.flatMap((f) => {
    const measured = new Set<string>();
    for (const s of f.head)
      for (const b of s.summary.benchmarks) measured.add(whereKey(b.suite, b.id));
    const where = f.shard.where ?? [];
    const stranger = where.find((w) => !measured.has(whereKey(w.suite, w.id)));
    if (stranger !== undefined)
      throw new InputError(
        `${label(f.shard)} has a where for ${JSON.stringify(stranger.id.slice(0, 120))} of suite ${JSON.stringify(stranger.suite.slice(0, 64))}, which it did not measure`,
        { source: path.join(f.dir, SHARD_FILE), jsonPath: `/where/${where.indexOf(stranger)}` },
      );
    return where;
  });
  return entries.length === 0 ? undefined : wheresBy(entries);
}

/** The folders as one measure job's results, in shard order. */
export function mergeShardFolders(
  folders: readonly ShardFolder[],
  expected: MergeExpectation,
  sha256: ShardReading["sha256"],
): MeasuredResults & { readonly shards: readonly BenchShard[] } {
  checkWhole(folders, expected);
  const sorted = [...folders].sort((a, b) => a.shard.index - b.shard.index);
  checkDisjoint(sorted);
  for (const f of sorted) {
    checkDealt(f.shard, path.join(f.dir, SHARD_FILE), sha256);
    checkMeasured(f.shard, [...f.base, ...f.head], f.dir);
  }
  const goldenless = sorted.find((f) => f.shard.index !== 1 && f.shard.golden.length > 0);
  if (goldenless !== undefined)
    throw new InputError(
      `${label(goldenless.shard)} has golden results; only shard 1 checks the golden outputs`,
      { source: path.join(goldenless.dir, SHARD_FILE) },
    );
  const tables = sorted
    .filter((f) => f.critcmpTable !== undefined)
    .map((f) => `${label(f.shard)}\n${f.critcmpTable ?? ""}`.trimEnd());
  const wheres = shardWheres(sorted);
  return {
    base: sorted.flatMap((f) => f.base),
    head: sorted.flatMap((f) => f.head),
    golden: sorted[0]?.shard.golden ?? [],
    shards: sorted.map((f) => f.shard),
    ...(tables.length === 0 ? {} : { critcmpTable: tables.join("\n\n") + "\n" }),
    ...(wheres === undefined ? {} : { wheres }),
  };
}

/** Reads every folder, then merges them. */
export async function readShardFolders(
  reading: ShardReading,
  dirs: readonly string[],
  expected: MergeExpectation,
): Promise<MeasuredResults & { readonly shards: readonly BenchShard[] }> {
  const folders: ShardFolder[] = [];
  for (const dir of dirs) folders.push(await readShardFolder(reading.reader, dir, expected));
  return mergeShardFolders(folders, expected, reading.sha256);
}
