// The exact command lines for each suite kind, side and round. Pure: paths in, argv out, so the
// interleaving and naming rules are testable without running anything.
import type {
  Argv,
  CriterionSuitePlan,
  CustomSuitePlan,
  HyperfineSuitePlan,
} from "../config/run-config.ts";

export type Side = "base" | "head";

/** Where one side lives for the whole run. */
export interface SidePaths {
  readonly worktree: string;
  /** CARGO_TARGET_DIR of this side: never shared with the other side. */
  readonly target: string;
}

/** Every command of a side sees its own target directory; Cargo's progress bars stay out of logs. */
export function sideEnv(
  env: Readonly<Record<string, string>>,
  paths: SidePaths,
): Record<string, string> {
  return {
    ...env,
    CARGO_TARGET_DIR: paths.target,
    CARGO_TERM_COLOR: "never",
    CARGO_TERM_PROGRESS_WHEN: "never",
  };
}

/** The `{target}`, `{worktree}` and (custom suites) `{out}` placeholders. */
export interface Placeholders {
  readonly target: string;
  readonly worktree: string;
  readonly out?: string;
}

const PLACEHOLDER = /\{(target|worktree|out)\}/g;

/** Replaces placeholders in one argv item. Unknown `{…}` text is left alone. */
export function expand(
  text: string,
  values: Placeholders,
  quote: (s: string) => string = (s) => s,
): string {
  return text.replace(PLACEHOLDER, (whole, name: keyof Placeholders) => {
    const value = values[name];
    return value === undefined ? whole : quote(value);
  });
}

export function expandArgv(argv: Argv, values: Placeholders): Argv {
  const [program, ...rest] = argv;
  return [expand(program, values), ...rest.map((a) => expand(a, values))];
}

/** POSIX shell single-quoting, for paths put into hyperfine's shell command lines. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Criterion's baseline name for a side and round: `base-3`, `head-3`. */
export function baselineName(side: Side, round: number): string {
  return `${side}-${round}`;
}

function cargoTarget(suite: CriterionSuitePlan): string[] {
  const args = ["--bench", suite.bench];
  if (suite.manifestPath !== undefined) args.push("--manifest-path", suite.manifestPath);
  if (suite.package !== undefined) args.push("--package", suite.package);
  if (suite.features.length > 0) args.push("--features", suite.features.join(","));
  return args;
}

/** Builds the bench binary once per side (the rounds then only run it). */
export function criterionBuildArgv(suite: CriterionSuitePlan): Argv {
  return ["cargo", "bench", "--no-run", ...cargoTarget(suite)];
}

export function criterionRunArgv(suite: CriterionSuitePlan, side: Side, round: number): Argv {
  const argv: [string, ...string[]] = [
    "cargo",
    "bench",
    ...cargoTarget(suite),
    "--",
    ...suite.args,
  ];
  argv.push("--noplot", "--save-baseline", baselineName(side, round));
  // Criterion's filter is a positional argument; the config refuses one that starts with "-".
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
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

export function customArgv(suite: CustomSuitePlan, values: Placeholders): Argv {
  return expandArgv(suite.command, values);
}

/** Round r runs base first when r is odd: A B | B A | A B …, so order effects cancel. */
export function roundOrder(round: number): readonly [Side, Side] {
  return round % 2 === 1 ? ["base", "head"] : ["head", "base"];
}
