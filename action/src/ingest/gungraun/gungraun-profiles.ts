// The Callgrind file gungraun (or iai-callgrind) already wrote for one benchmark, for "Where it
// regressed" (docs/where.md): the harness runs every benchmark once under Callgrind, counting
// only inside it, and keeps that profile beside the benchmark's summary.json
// (`<package>/<bench file>/<group>/<function>.<id>/callgrind.<function>.<id>.out`). Found by
// the id the summary gives (the same id `ingest gungraun` reads), never by building a path from
// the id; the walk is the tree reader's, with its bounds.
import type { FileReader } from "../../ports/files.ts";
import { parseUntrustedJson } from "../read-json.ts";
import { parseGungraunSummary } from "./gungraun-summary.ts";
import { findSummaries, GUNGRAUN_TREE_LIMITS } from "./gungraun-tree.ts";

export interface RecordedProfile {
  /** The Callgrind output file. */
  readonly file: string;
  /** The benchmark function's name as the harness gives it (`function_name`), if any. */
  readonly functionName: string | undefined;
}

/** The profile files of a benchmark folder: Callgrind's output, not its log or an `.old` copy. */
function isProfile(name: string): boolean {
  return name.startsWith("callgrind.") && name.endsWith(".out");
}

/** The Callgrind file of benchmark `id` under `home` (a run's gungraun folder), or undefined. */
export async function findGungraunProfile(
  home: string,
  id: string,
  reader: FileReader,
): Promise<RecordedProfile | undefined> {
  if ((await reader.kindOf(home)) !== "dir") return undefined;
  const limit = GUNGRAUN_TREE_LIMITS.maxSummaryBytes;
  for (const summaryFile of await findSummaries(home, reader, GUNGRAUN_TREE_LIMITS)) {
    const data = parseUntrustedJson(await reader.readText(summaryFile, limit), summaryFile, limit);
    if (parseGungraunSummary(data, summaryFile, "where").id !== id) continue;
    const dir = summaryFile.slice(0, summaryFile.lastIndexOf("/"));
    const profiles = (await reader.list(dir)).filter((e) => e.kind === "file" && isProfile(e.name));
    // One profile per benchmark; several (threads or subprocesses as separate files) are not
    // one run's whole, so none is taken.
    if (profiles.length !== 1) return undefined;
    const fn = (data as { readonly function_name?: unknown }).function_name;
    return {
      file: `${dir}/${(profiles[0] as (typeof profiles)[number]).name}`,
      functionName: typeof fn === "string" && fn.length <= 1024 ? fn : undefined,
    };
  }
  return undefined;
}
