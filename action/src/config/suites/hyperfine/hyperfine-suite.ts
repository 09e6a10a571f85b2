// `kind: hyperfine`: shell command lines timed by hyperfine, one process per run. Each side and
// round writes `--export-json <side>-<round>.json`, read by `ingest hyperfine`; a benchmark's id
// is its command's name (--command-name). With `schedule: pairs` each process times one command
// (its base and head processes back to back), briefly unless the suite sets its own runs.
import path from "node:path";
import type { HyperfineSuite } from "../../../schemas/config.gen.ts";
import { unique, type Argv } from "../../config-checks.ts";
import { InputError } from "../../../errors.ts";
import { expand, shellQuote, type Placeholders } from "../../placeholders.ts";
import type { SuiteBase, SuiteKind } from "../suite-kind.ts";
import { filterCommands, narrowCommands } from "../named-commands.ts";
import { setsOption } from "../harness-flags.ts";
import { PROCESS_MS } from "../round-estimate.ts";

/**
 * One short hyperfine process under schedule: pairs: one warm-up run and ten timed runs of its
 * command, unless the suite's `warmup:`/`runs:` or its args say otherwise (hyperfine's own
 * default is at least ten runs and three seconds per command).
 */
const PAIR_RUNS = Object.freeze({ warmup: 1, runs: 10 });

/** One run of a command, not known before it runs: a short command's guess. */
const RUN_MS = 50;
/** hyperfine's own minimum when the number of runs is not set: at least three seconds. */
const MIN_MS = 3000;

export interface HyperfineSuitePlan extends SuiteBase {
  readonly kind: "hyperfine";
  readonly commands: readonly { readonly name: string; readonly command: string }[];
  readonly warmup?: number;
  readonly runs?: number;
  readonly prepare?: string;
  readonly args: readonly string[];
}

export function hyperfineArgv(
  suite: HyperfineSuitePlan,
  exportJson: string,
  values: Placeholders,
): Argv {
  const argv: [string, ...string[]] = [
    "hyperfine",
    "--style",
    "basic",
    "--export-json",
    exportJson,
  ];
  if (suite.warmup !== undefined) argv.push("--warmup", String(suite.warmup));
  if (suite.runs !== undefined) argv.push("--runs", String(suite.runs));
  if (suite.prepare !== undefined)
    argv.push("--prepare", expand(suite.prepare, values, shellQuote));
  argv.push(...suite.args);
  for (const c of suite.commands)
    argv.push("--command-name", c.name, expand(c.command, values, shellQuote));
  return argv;
}

const VARIANT = "{variant}";

/**
 * The commands as run: each once per variant (`<variant>/<name>`, {variant} replaced by the
 * variant's value), or as written without variants.
 */
function variantCommands(
  raw: HyperfineSuite,
  key: string,
  source: string,
): { name: string; command: string }[] {
  const variants = raw.variants;
  for (const [j, c] of raw.commands.entries()) {
    if ((variants === undefined) !== c.command.includes(VARIANT)) continue;
    throw new InputError(
      variants === undefined
        ? `command ${JSON.stringify(c.name)} uses {variant}, but the suite has no variants: list them under variants:, or remove {variant}`
        : `command ${JSON.stringify(c.name)} does not use {variant}: each variant would run the same command`,
      { source, jsonPath: `${key}/commands/${j}/command` },
    );
  }
  if (variants === undefined)
    return raw.commands.map((c) => ({ name: c.name, command: c.command }));
  unique(
    variants.map((v) => v.name),
    (j) => `${key}/variants/${j}/name`,
    "variant name",
    source,
  );
  return variants.flatMap((v) =>
    raw.commands.map((c) => ({
      name: `${v.name}/${c.name}`,
      command: c.command.replaceAll(VARIANT, v.value),
    })),
  );
}

/** The suite sets its own runs: --runs cannot be combined with --min-runs or --max-runs, so any of them. */
function ownsRuns(plan: HyperfineSuitePlan): boolean {
  const { args } = plan;
  return (
    plan.runs !== undefined ||
    setsOption(args, "--runs", "-r") ||
    setsOption(args, "--min-runs", "-m") ||
    setsOption(args, "--max-runs", "-M")
  );
}

/** One side's guess for `count` commands: their runs, and under pairs a process each. */
function sideMs(plan: HyperfineSuitePlan, count: number, pairs: boolean): number {
  const runs = plan.runs ?? (pairs && !ownsRuns(plan) ? PAIR_RUNS.runs : undefined);
  const warmup = plan.warmup ?? (pairs ? PAIR_RUNS.warmup : 0);
  const perCommand = runs === undefined ? Math.max(MIN_MS, 10 * RUN_MS) : (runs + warmup) * RUN_MS;
  return count * (perCommand + (pairs ? PROCESS_MS : 0)) + PROCESS_MS;
}

export const hyperfineSuite: SuiteKind<HyperfineSuite, HyperfineSuitePlan> = {
  name: "hyperfine",
  plan(raw, base, { key, source }) {
    unique(
      raw.commands.map((c) => c.name),
      (j) => `${key}/commands/${j}/name`,
      "hyperfine command name",
      source,
    );
    return {
      kind: "hyperfine",
      ...base,
      commands: variantCommands(raw, key, source),
      ...(raw.warmup === undefined ? {} : { warmup: raw.warmup }),
      ...(raw.runs === undefined ? {} : { runs: raw.runs }),
      ...(raw.prepare === undefined ? {} : { prepare: raw.prepare }),
      args: [...(raw.args ?? [])],
    };
  },
  // Commands are kept when their name matches.
  filter: filterCommands,
  narrow: narrowCommands,
  idsBeforeRun: (plan) => plan.commands.map((c) => c.name),
  pairUnit: "command",
  estimateSideMs: (plan, count, pairs) =>
    count === undefined ? undefined : sideMs(plan, count, pairs),
  shorten(plan) {
    const ownWarmup = plan.warmup !== undefined || setsOption(plan.args, "--warmup", "-w");
    const ownRuns = ownsRuns(plan);
    const added = [
      ...(ownWarmup ? [] : ["--warmup", String(PAIR_RUNS.warmup)]),
      ...(ownRuns ? [] : ["--runs", String(PAIR_RUNS.runs)]),
    ];
    return {
      plan: {
        ...plan,
        ...(ownWarmup ? {} : { warmup: PAIR_RUNS.warmup }),
        ...(ownRuns ? {} : { runs: PAIR_RUNS.runs }),
      },
      added,
      kept: [...(ownWarmup ? ["--warmup"] : []), ...(ownRuns ? ["--runs"] : [])],
    };
  },
  // Where: the command line once, through the shell as hyperfine starts it (`sh -c`), every
  // process it starts profiled; `prepare:` is not run.
  profileCommand(plan, id, places) {
    const c = plan.commands.find((command) => command.name === id);
    if (c === undefined) return undefined;
    return {
      argv: ["sh", "-c", expand(c.command, places, shellQuote)],
      children: true,
      wholeRun: "a command line's instructions, one run on each side, its processes summed",
    };
  },
  step(plan, run) {
    const file = path.join(run.dir, `${run.tag}.json`);
    const places = { target: run.paths.target, worktree: run.paths.worktree };
    return {
      argv: hyperfineArgv(plan, file, places),
      output: { format: "hyperfine", path: file },
    };
  },
};
