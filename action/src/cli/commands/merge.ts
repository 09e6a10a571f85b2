// benchgate merge DIR...: the verdict of a sharded run (docs/shards.md), an adapter over gate/:
// the shards' folders → one set of summaries → the same decision `run` makes.
import path from "node:path";
import { InputError } from "../../errors.ts";
import { decide } from "../../gate/decide.ts";
import { loadGatePlan } from "../../gate/load-plan.ts";
import { readShardFolders, readShardManifest } from "../../gate/merge-shards.ts";
import { carryMeasuredWhere } from "../../gate/measured-where.ts";
import { writeOutputs } from "../../gate/outputs.ts";
import type { Machine } from "../../ports/machine.ts";
import { renderText } from "../../render/text.ts";
import { MAX_SHARDS } from "../../core/shard-blocks.ts";
import type { BenchShard } from "../../schemas/shard.gen.ts";
import { booleanFlag, integerFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { SETTING_FLAGS, SETTING_FLAGS_HELP, statisticsOverrides } from "../statistics-flags.ts";

const MERGE_HELP = `Usage: benchgate merge DIR... [options]

Decides once over a sharded run: each DIR is the --out folder of one \`benchgate run --shard I/N\`
(one per shard, in any order). Every shard must be there exactly once, all from the same split of
the same commits, rounds and --filter; each must have measured exactly the units it was dealt
(shard.json lists them), and no benchmark may come from two shards; otherwise merge stops with an
error (a missing, failed or partial shard is never a pass on the rest). The decision is the one
\`run\` makes, over all benchmarks at once: one false-discovery family, one round model in which
each shard's rounds are blocks of their own (they ran on different machines). With rounds: auto
each shard ran its own looks and stopped on its own; merge replays each shard's looks as they
were taken and decides over all of their sequential p-values at once. After a filtered
run, budgets and claims of benchmarks outside the filter are left unchecked, as \`run --filter\`
leaves them.

Options:
  --config FILE       benchgate.yml to judge by; default: benchgate.yml as committed in the base
                      commit the shards measured, read from --repo
  --repo DIR          the git repository (default: the current directory)
  --shards N          how many shards the run was split into (default: what the shards say)
  --out DIR           where report.json, comment.md and critcmp.txt go (default: .benchgate/merged)
  --quiet             print nothing but the verdict and errors
  -h, --help          show this help

${SETTING_FLAGS_HELP}

Exit codes: 0 pass or inconclusive, 1 the gate failed, 2 bad usage, an invalid folder, or a set
of shards that is incomplete, partial, overlapping or from different runs, 3 a tool failed.`;

/** "5 rounds each", or with rounds: auto each shard's own: "rounds 4, 7, 3". */
function roundsRan(shards: readonly BenchShard[]): string {
  const rounds = shards.map((s) => s.rounds);
  return rounds.every((r) => r === rounds[0])
    ? `${rounds[0] ?? 0} rounds each`
    : `rounds ${rounds.join(", ")}`;
}

export async function mergeCommand(argv: readonly string[], machine: Machine): Promise<number> {
  const args = parseFlags(argv, {
    config: { kind: "string" },
    repo: { kind: "string" },
    shards: { kind: "string" },
    out: { kind: "string" },
    quiet: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
    ...SETTING_FLAGS,
  });
  if (booleanFlag(args, "help")) {
    machine.out(MERGE_HELP + "\n");
    return EXIT.pass;
  }
  const dirs = args.positionals.map((d) => path.resolve(machine.cwd, d));
  if (dirs.length === 0) throw new InputError("merge needs the folder of every shard (see --help)");
  // Flags first: a bad flag is reported before any folder is read.
  const statistics = statisticsOverrides(args);
  const count =
    stringFlag(args, "shards") === undefined
      ? undefined
      : integerFlag(args, "shards", 0, 1, MAX_SHARDS);
  // The base commit the shards measured names the config, as `run` reads it from base; their
  // filter narrows the plan as `run --filter` does, so budgets and claims of benchmarks outside
  // it are left unchecked, not broken. Every other shard must have run with the same filter.
  const first = await readShardManifest(machine.reader, dirs[0] as string);
  const expected = count === undefined ? {} : { count };
  const configFile = stringFlag(args, "config");
  const repo = path.resolve(machine.cwd, stringFlag(args, "repo") ?? ".");
  const plan = await loadGatePlan(
    configFile === undefined
      ? { kind: "commit", repo, ref: first.base }
      : { kind: "file", file: configFile },
    { statistics, ...(first.filter === undefined ? {} : { filter: first.filter }) },
    machine,
  );
  const merged = await readShardFolders(machine, dirs, expected);
  const decided = decide(plan, merged, machine.clock.date());
  // The shards' own Where, on the regressions this decision confirms (docs/where.md).
  const decision =
    merged.wheres === undefined
      ? decided
      : carryMeasuredWhere(decided, merged.wheres, (message) => machine.err(`${message}\n`));
  const out = path.resolve(machine.cwd, stringFlag(args, "out") ?? ".benchgate/merged");
  await machine.dirs.ensure(out);
  await writeOutputs(out, decision, { critcmpTable: merged.critcmpTable }, machine);
  const { report } = decision;
  machine.out(renderText(report, {}) + "\n");
  if (!booleanFlag(args, "quiet"))
    machine.out(
      `\nmerged ${merged.shards.length} shards (${roundsRan(merged.shards)}) into ${path.relative(machine.cwd, out) || "."}/: report.json, comment.md${merged.critcmpTable === undefined ? "" : ", critcmp.txt"}\n`,
    );
  return report.verdict === "fail" ? EXIT.gateFailed : EXIT.pass;
}
