// benchgate baseline accept NAME (--from DIR | SUMMARY...): one side of a run becomes the stored
// baseline `baselines/<NAME>/`, for a reviewed pull request to carry (docs/baselines.md).
import path from "node:path";
import { BASELINE_FILE, checkBaselineName, planBaseline } from "../../baselines/accept-baseline.ts";
import type { SourcedSummary } from "../../core/pairing.ts";
import { InputError } from "../../errors.ts";
import { readSummaryFile } from "../../ingest/read-document.ts";
import { booleanFlag, parseArgs, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

export const BASELINE_HELP = `Usage: benchgate baseline accept NAME (--from DIR | SUMMARY...) [options]

Writes one side of a benchmark run into baselines/NAME/ as the stored baseline: its per-round
summaries (round-1.json, round-2.json, …, validated) and manifest.yml (commit, time, who, why).
Nothing changes for the gate until those files are committed and a reviewed pull request merges
them; the command prints those steps. Then compare against it:

  benchgate compare --base baselines/NAME/*.json --head SUMMARY...

Options:
  --from DIR        a \`benchgate run --out DIR\` folder: reads DIR/summaries/SIDE-N.json
  --side base|head  the side of that run to accept (default head)
  SUMMARY...        or summary.json files (one side of one commit) instead of --from
  --dir DIR         where baselines live (default: baselines, in the current directory)
  --commit SHA      the measured commit, when the summaries do not record it
  --by WHO          who accepted it (kept in the manifest)
  --reason TEXT     why (kept in the manifest)
  --force           replace an existing baseline of that name
  -h, --help        show this help

Exit codes: 0 written, 2 bad usage or invalid input (one line naming the file and problem).`;

const RUN_SUMMARY = /^(base|head)-([1-9][0-9]{0,4})\.json$/;

/** A path as a word a POSIX shell reads back unchanged. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The summaries of one side of a `benchgate run` output folder, in round order. */
async function runSummaries(dir: string, side: string, deps: Machine): Promise<string[]> {
  const folder = path.join(dir, "summaries");
  const rounds: [number, string][] = [];
  for (const entry of await deps.reader.list(folder)) {
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
  from: string | undefined,
  side: string | undefined,
  files: readonly string[],
  deps: Machine,
): Promise<readonly string[]> {
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
  return runSummaries(from, chosen, deps);
}

export async function baselineCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseArgs(argv, {
    from: { kind: "string" },
    side: { kind: "string" },
    dir: { kind: "string" },
    commit: { kind: "string" },
    by: { kind: "string" },
    reason: { kind: "string" },
    force: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(BASELINE_HELP + "\n");
    return EXIT.pass;
  }
  const [action, name, ...files] = args.positionals;
  if (action !== "accept")
    throw new InputError("baseline needs an action: benchgate baseline accept NAME (see --help)");
  if (name === undefined) throw new InputError("baseline accept needs NAME (see --help)");
  checkBaselineName(name);

  const summaries: SourcedSummary[] = [];
  const sources = await inputFiles(stringFlag(args, "from"), stringFlag(args, "side"), files, deps);
  for (const source of sources)
    summaries.push({ source, summary: await readSummaryFile(deps.reader, source) });
  const plan = planBaseline({
    name,
    summaries,
    acceptedAt: deps.clock.date().toISOString(),
    by: stringFlag(args, "by"),
    reason: stringFlag(args, "reason"),
    commit: stringFlag(args, "commit"),
    sha256: deps.sha256,
  });

  const { cwd, dirs } = deps;
  const target = path.resolve(cwd, stringFlag(args, "dir") ?? "baselines", name);
  const relative = path.relative(cwd, target);
  const shown = relative !== "" && !relative.startsWith("..") ? relative : target;
  const kind = await deps.reader.kindOf(target);
  if (kind !== undefined && kind !== "dir")
    throw new InputError("exists and is not a directory", { source: shown });
  const present = kind === "dir" ? await deps.reader.list(target) : [];
  if (present.length > 0) {
    if (!booleanFlag(args, "force"))
      throw new InputError(
        `already holds a baseline (${present.length} files); pass --force to replace it`,
        { source: shown },
      );
    // Only what accept itself writes is replaced: a folder holding anything else (golden
    // outputs, notes) is someone's, and deleting it is not this command's call.
    const foreign = present
      .filter((e) => e.kind !== "file" || !BASELINE_FILE.test(e.name))
      .map((e) => JSON.stringify(e.name));
    if (foreign.length > 0)
      throw new InputError(
        `holds entries benchgate baseline accept did not write (${foreign.slice(0, 3).join(", ")}); refusing to replace it`,
        { source: shown },
      );
    await dirs.remove(target);
  }
  await dirs.ensure(target);
  for (const file of plan.files)
    await deps.writer.writeText(path.join(target, file.name), file.text);

  const rounds = plan.files.filter((f) => f.name.endsWith(".json")).map((f) => f.name);
  const short = plan.commit.slice(0, 12);
  const branch = `baseline/${name}-${plan.commit.slice(0, 7)}`;
  const folder = shellWord(shown);
  deps.out(
    `wrote ${shown}/: ${rounds.length === 1 ? rounds[0] : `${rounds[0]} … ${rounds.at(-1)}`} ` +
      `(${plan.rounds.length} round${plan.rounds.length === 1 ? "" : "s"}, ${plan.benchmarks} benchmarks of ${plan.side} ${short}) and manifest.yml\n\n` +
      `It takes effect when a reviewed pull request merges it:\n` +
      `  git switch -c ${branch}\n` +
      `  git add ${folder}\n` +
      `  git commit -m "baseline ${name}: accept ${short} (${plan.side})"\n` +
      `  git push -u origin ${branch}    # then open the pull request\n\n` +
      `Then compare against it (the stored-baseline mode):\n` +
      `  benchgate compare --base ${folder}/*.json --head SUMMARY...\n`,
  );
  return EXIT.pass;
}
