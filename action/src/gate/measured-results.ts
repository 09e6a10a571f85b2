// Reading the measure job's folder in the report job. That folder was written by a job that ran
// the pull request's code, so every byte of it is hostile (docs/threat-model.md, I3): only the
// file names we expect are read (never a name built from its contents), each under a size cap
// and through the schema, symlinks refused by the reader, and every summary must say it measured
// the commit this job was told — by the event or the authorizer, never by the artifact.
import path from "node:path";
import type { RunConfig } from "../config/run-config.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import { readReportFile, readSummaryFile } from "../ingest/read-document.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";
import type { GateTarget } from "./publish.ts";
import type { ShardTag } from "../core/shard-blocks.ts";
import { measuredWheres, type MeasuredWheres } from "./measured-where.ts";

const SUMMARY_NAME = /^(base|head)-([1-9][0-9]{0,3})\.json$/;
/** benchgate run writes one summary per side and round; 100 rounds is the config's maximum. */
const MAX_SUMMARIES = 200;
/** critcmp's table is shown folded in the comment; a larger file is not a table worth reading. */
const MAX_CRITCMP_BYTES = 1024 * 1024;

export interface MeasuredResults {
  readonly base: readonly SourcedSummary[];
  readonly head: readonly SourcedSummary[];
  readonly golden: readonly GoldenResult[];
  readonly critcmpTable?: string;
  /**
   * The measure job's Where per regression it profiled (./measured-where.ts), from its
   * schema-checked report.json; none from a shard, which is never profiled.
   */
  readonly wheres?: MeasuredWheres;
}

/**
 * The rounds the trusted config (or the authorizer's rounds=N, always a fixed count) asked for:
 * a fixed count, or with rounds: auto (`sequential`) anything from min-rounds to `rounds`.
 */
export type ExpectedRounds = Pick<RunConfig, "rounds" | "sequential">;

/** Round numbers (as written in the file names) per side. */
function roundsOf(names: readonly string[], side: "base" | "head"): string[] {
  return names
    .map((n) => SUMMARY_NAME.exec(n))
    .filter((m) => m?.[1] === side)
    .map((m) => m?.[2] ?? "");
}

/**
 * Which rounds must be there: every round of both sides, so no round can be left out of the
 * decision. With sequential rounds the artifact's highest round says where the run stopped; it
 * must lie within the trusted design, and every round up to it must be there on both sides.
 */
function wantedRounds(names: readonly string[], expected: ExpectedRounds, dir: string): number {
  const { sequential } = expected;
  if (sequential === undefined) return expected.rounds;
  const highest = Math.max(
    0,
    ...[...roundsOf(names, "base"), ...roundsOf(names, "head")].map(Number),
  );
  const design = `rounds: auto with min-rounds ${sequential.minRounds} and max-rounds ${expected.rounds}`;
  if (highest < sequential.minRounds)
    throw new InputError(
      `expected at least rounds 1 to ${sequential.minRounds} of both sides (${design}); the last round here is ${highest}`,
      { source: dir },
    );
  if (highest > expected.rounds)
    throw new InputError(
      `expected at most ${expected.rounds} rounds of each side (${design}); found round ${highest}`,
      { source: dir },
    );
  return highest;
}

/**
 * The summary files' names, after checking the folder: it exists, holds no more files than a run
 * can write, and every name we would read is a regular file (not a symlink or a folder).
 */
async function summaryNames(
  reader: FileReader,
  dir: string,
  summariesDir: string,
): Promise<string[]> {
  if ((await reader.kindOf(summariesDir)) !== "dir")
    throw new InputError(
      "the measure job's results have no summaries/ folder (did the artifact upload or download fail?)",
      { source: dir },
    );
  const entries = (await reader.list(summariesDir)).filter((e) => SUMMARY_NAME.test(e.name));
  if (entries.length > MAX_SUMMARIES)
    throw new InputError(`more than ${MAX_SUMMARIES} summaries`, { source: summariesDir });
  const odd = entries.find((e) => e.kind !== "file");
  if (odd !== undefined)
    throw new InputError("is not a regular file (a symlink or a folder)", {
      source: path.join(summariesDir, odd.name),
    });
  return entries.map((e) => e.name);
}

/** Every wanted round is there on both sides, and no other. */
function checkRounds(
  names: readonly string[],
  expected: ExpectedRounds,
  summariesDir: string,
): void {
  const rounds = wantedRounds(names, expected, summariesDir);
  const wanted = Array.from({ length: rounds }, (_, i) => `${i + 1}`);
  for (const side of ["base", "head"] as const) {
    const have = roundsOf(names, side);
    const missing = wanted.filter((r) => !have.includes(r));
    const extra = have.filter((r) => !wanted.includes(r));
    if (missing.length > 0 || extra.length > 0)
      throw new InputError(
        `expected ${side} rounds 1 to ${rounds}${expected.sequential === undefined ? "" : " (rounds: auto: the same rounds on both sides, none left out)"}; ${[missing.length > 0 ? `missing ${missing.join(", ")}` : "", extra.length > 0 ? `unexpected ${extra.join(", ")}` : ""].filter(Boolean).join("; ")}`,
        { source: summariesDir },
      );
  }
}

/**
 * One summary, read through the schema, that must say what its name says, the commit this job
 * was told, and the trusted config's sequential design.
 */
async function readSummary(
  reader: FileReader,
  file: string,
  name: { readonly side: string | undefined; readonly round: string | undefined },
  target: GateTarget,
  expected: ExpectedRounds & { readonly shard: ShardTag | undefined },
): Promise<SourcedSummary> {
  const { side, round } = name;
  const summary = await readSummaryFile(reader, file);
  // Which shard a summary belongs to decides which rounds it is blocked with: it must be the
  // shard its folder holds (none for an unsharded run), never one the file chose.
  const shard = summary.shard;
  if (shard?.index !== expected.shard?.index || shard?.count !== expected.shard?.count)
    throw new InputError(
      `${shard === undefined ? "is not tagged with a shard" : `says it is shard ${shard.index}/${shard.count}`}, but its folder holds ${expected.shard === undefined ? "an unsharded run" : `shard ${expected.shard.index}/${expected.shard.count}`}`,
      { source: file, jsonPath: "/shard" },
    );
  const commit = side === "base" ? target.baseSha : target.headSha;
  if (summary.side !== side || summary.round !== Number(round))
    throw new InputError(
      `says it is ${summary.side} round ${summary.round}, but its name says ${side} round ${round}`,
      { source: file },
    );
  if (summary.commit !== commit)
    throw new InputError(
      `records commit ${summary.commit ?? "(none)"}, but this report is for ${side} ${commit}`,
      { source: file },
    );
  // compare replays the sequential stopping rule from a summary's design: it must be the
  // trusted config's, never one the artifact chose (and none at all for a fixed count).
  const design =
    expected.sequential === undefined
      ? undefined
      : { min_rounds: expected.sequential.minRounds, max_rounds: expected.rounds };
  const got = summary.sequential;
  if (got?.min_rounds !== design?.min_rounds || got?.max_rounds !== design?.max_rounds)
    throw new InputError(
      `${got === undefined ? "has no sequential block" : `has sequential min_rounds ${got.min_rounds}, max_rounds ${got.max_rounds}`}, but the base config has ${design === undefined ? `a fixed rounds: ${expected.rounds}` : `rounds: auto with min-rounds ${design.min_rounds} and max-rounds ${design.max_rounds}`}`,
      { source: file },
    );
  return { source: file, summary };
}

/** critcmp's table, when the measure job wrote one. */
export async function readCritcmpTable(
  reader: FileReader,
  dir: string,
): Promise<string | undefined> {
  const critcmp = path.join(dir, "critcmp.txt");
  return (await reader.kindOf(critcmp)) === "file"
    ? await reader.readText(critcmp, MAX_CRITCMP_BYTES)
    : undefined;
}

/**
 * Every summary of a measure job's (or a shard's) folder, checked against the commits this job
 * was told and the rounds the trusted config asked for.
 */
export async function readSummaryFolder(
  reader: FileReader,
  dir: string,
  target: GateTarget,
  expected: ExpectedRounds & { readonly shard: ShardTag | undefined },
): Promise<Pick<MeasuredResults, "base" | "head">> {
  const summariesDir = path.join(dir, "summaries");
  // Round order, whatever order the folder lists them in: the report must not depend on it.
  const roundOf = (n: string): number => Number(SUMMARY_NAME.exec(n)?.[2]);
  const names = (await summaryNames(reader, dir, summariesDir)).sort(
    (a, b) => roundOf(a) - roundOf(b) || (a < b ? -1 : 1),
  );
  checkRounds(names, expected, summariesDir);
  const base: SourcedSummary[] = [];
  const head: SourcedSummary[] = [];
  for (const name of names) {
    const [, side, round] = SUMMARY_NAME.exec(name) ?? [];
    const file = path.join(summariesDir, name);
    const sourced = await readSummary(reader, file, { side, round }, target, expected);
    (side === "base" ? base : head).push(sourced);
  }
  if (base.length === 0 || head.length === 0)
    throw new InputError(
      `the measure job's results hold ${base.length} base and ${head.length} head summaries; both sides are needed`,
      { source: summariesDir },
    );
  return { base, head };
}

export async function readMeasuredResults(
  reader: FileReader,
  dir: string,
  target: GateTarget,
  expected: ExpectedRounds,
): Promise<MeasuredResults> {
  const { base, head } = await readSummaryFolder(reader, dir, target, {
    ...expected,
    shard: undefined,
  });
  // Golden outputs are checked where the code ran; the verdict itself is recomputed here. Where
  // is profiled where the code ran too; shown only on regressions this job confirms itself.
  const measured = await readReportFile(reader, path.join(dir, "report.json"));
  const critcmpTable = await readCritcmpTable(reader, dir);
  return {
    base,
    head,
    golden: measured.golden,
    wheres: measuredWheres(measured),
    ...(critcmpTable === undefined ? {} : { critcmpTable }),
  };
}
