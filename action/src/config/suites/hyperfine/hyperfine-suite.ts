// `kind: hyperfine`: shell command lines timed by hyperfine, one process per run. Each side and
// round writes `--export-json <side>-<round>.json`, read by `ingest hyperfine`; a benchmark's id
// is its command's name (--command-name).
import path from "node:path";
import type { HyperfineSuite } from "../../../schemas/config.gen.ts";
import { unique, type Argv } from "../../config-checks.ts";
import { InputError } from "../../../errors.ts";
import { expand, shellQuote, type Placeholders } from "../../placeholders.ts";
import type { SuiteBase, SuiteKind } from "../suite-kind.ts";
import { filterCommands, narrowCommands } from "../named-commands.ts";

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
  step(plan, run) {
    const file = path.join(run.dir, `${run.tag}.json`);
    const places = { target: run.paths.target, worktree: run.paths.worktree };
    return {
      argv: hyperfineArgv(plan, file, places),
      output: { format: "hyperfine", path: file },
    };
  },
};
