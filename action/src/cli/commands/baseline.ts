// benchgate baseline accept NAME (--from DIR | SUMMARY...): one side of a run becomes the stored
// baseline `baselines/<NAME>/`, for a reviewed pull request to carry (docs/baselines.md).
import { InputError } from "../../errors.ts";
import { storeBaseline, type StoredBaseline } from "../../gate/store-baseline.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const BASELINE_HELP = `Usage: benchgate baseline accept NAME (--from DIR | SUMMARY...) [options]

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

/** A path as a word a POSIX shell reads back unchanged. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** What was written, and the git steps that make it take effect. */
function printNextSteps(name: string, stored: StoredBaseline, machine: Machine): void {
  const { plan, shown } = stored;
  const rounds = plan.files.filter((f) => f.name.endsWith(".json")).map((f) => f.name);
  const short = plan.commit.slice(0, 12);
  const branch = `baseline/${name}-${plan.commit.slice(0, 7)}`;
  const folder = shellWord(shown);
  machine.out(
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
}

export async function baselineCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
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
  const stored = await storeBaseline(
    {
      name,
      from: stringFlag(args, "from"),
      side: stringFlag(args, "side"),
      files,
      dir: stringFlag(args, "dir"),
      commit: stringFlag(args, "commit"),
      by: stringFlag(args, "by"),
      reason: stringFlag(args, "reason"),
      force: booleanFlag(args, "force"),
    },
    deps,
  );
  printNextSteps(name, stored, deps);
  return EXIT.pass;
}
