// `benchgate baseline accept` without its command line: read one side of a run (or summaries
// named one by one), plan the stored baseline (baselines/accept-baseline.ts) and write it into
// its folder (docs/baselines.md). The command prints the steps that make it take effect.
import path from "node:path";
import {
  BASELINE_FILE,
  checkBaselineName,
  planBaseline,
  type AcceptRequest,
  type BaselinePlan,
} from "../baselines/accept-baseline.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import { readSummaryFile } from "../ingest/read-document.ts";
import type { Machine } from "../ports/machine.ts";

/** The baseline's name, and who accepts which commit and why, as the manifest records them. */
type AcceptedAs = Pick<AcceptRequest, "name" | "commit" | "by" | "reason">;

interface StoreBaselineOptions extends AcceptedAs {
  /** A `benchgate run --out` folder to read one side of … */
  readonly from?: string | undefined;
  /** … that side (default head; only with `from`). */
  readonly side?: string | undefined;
  /** … or the summary files themselves. */
  readonly files: readonly string[];
  /** Where baselines live, relative to the working directory (default: baselines). */
  readonly dir?: string | undefined;
  /** Replace a baseline of that name that `accept` wrote before. */
  readonly force: boolean;
}

export interface StoredBaseline {
  readonly plan: BaselinePlan;
  /** The baseline's folder as shown: relative to the working directory when inside it. */
  readonly shown: string;
}

const RUN_SUMMARY = /^(base|head)-([1-9][0-9]{0,4})\.json$/;

/** The summaries of one side of a `benchgate run` output folder, in round order. */
async function runSummaries(dir: string, side: string, machine: Machine): Promise<string[]> {
  const folder = path.join(dir, "summaries");
  const rounds: [number, string][] = [];
  for (const entry of await machine.reader.list(folder)) {
    const match = RUN_SUMMARY.exec(entry.name);
    if (entry.kind === "file" && match?.[1] === side)
      rounds.push([Number(match[2]), path.join(folder, entry.name)]);
  }
  if (rounds.length === 0)
    throw new InputError(`no ${side}-N.json summaries (is it a benchgate run --out folder?)`, {
      source: folder,
    });
  return rounds.sort(([a], [b]) => a - b).map(([, file]) => file);
}

/** The files to read: a run's side, or the summaries named on the command line. */
async function inputFiles(
  options: StoreBaselineOptions,
  machine: Machine,
): Promise<readonly string[]> {
  const { from, side, files } = options;
  if (from !== undefined && files.length > 0)
    throw new InputError("give --from DIR or SUMMARY files, not both");
  if (from === undefined) {
    if (side !== undefined) throw new InputError("--side applies to --from DIR");
    if (files.length === 0)
      throw new InputError("baseline accept needs --from DIR or SUMMARY files (see --help)");
    return files;
  }
  const chosen = side ?? "head";
  if (chosen !== "base" && chosen !== "head")
    throw new InputError(`--side must be base or head, got ${JSON.stringify(chosen)}`);
  return runSummaries(from, chosen, machine);
}

/**
 * Makes room for the baseline: an existing folder is replaced only with `force`, and only when
 * it holds nothing but what accept itself writes.
 */
async function clearFolder(
  target: string,
  shown: string,
  force: boolean,
  machine: Machine,
): Promise<void> {
  const kind = await machine.reader.kindOf(target);
  if (kind !== undefined && kind !== "dir")
    throw new InputError("exists and is not a directory", { source: shown });
  const present = kind === "dir" ? await machine.reader.list(target) : [];
  if (present.length === 0) return;
  if (!force)
    throw new InputError(
      `already holds a baseline (${present.length} files); pass --force to replace it`,
      { source: shown },
    );
  // A folder holding anything else (golden outputs, notes) is someone's, and deleting it is not
  // this command's call.
  const foreign = present
    .filter((e) => e.kind !== "file" || !BASELINE_FILE.test(e.name))
    .map((e) => JSON.stringify(e.name));
  if (foreign.length > 0)
    throw new InputError(
      `holds entries benchgate baseline accept did not write (${foreign.slice(0, 3).join(", ")}); refusing to replace it`,
      { source: shown },
    );
  await machine.dirs.remove(target);
}

/** Reads and plans the baseline, then writes its files into `<dir>/<name>/`. */
export async function storeBaseline(
  options: StoreBaselineOptions,
  machine: Machine,
): Promise<StoredBaseline> {
  const { name } = options;
  checkBaselineName(name);
  const summaries: SourcedSummary[] = [];
  for (const source of await inputFiles(options, machine))
    summaries.push({ source, summary: await readSummaryFile(machine.reader, source) });
  const plan = planBaseline({
    name,
    summaries,
    acceptedAt: machine.clock.date().toISOString(),
    by: options.by,
    reason: options.reason,
    commit: options.commit,
    sha256: machine.sha256,
  });
  const { cwd } = machine;
  const target = path.resolve(cwd, options.dir ?? "baselines", name);
  const relative = path.relative(cwd, target);
  const shown = relative !== "" && !relative.startsWith("..") ? relative : target;
  await clearFolder(target, shown, options.force, machine);
  await machine.dirs.ensure(target);
  for (const file of plan.files)
    await machine.writer.writeText(path.join(target, file.name), file.text);
  return { plan, shown };
}
