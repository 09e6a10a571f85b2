// The CLI's composition root and its one catch: errors become one line and an exit code
// (docs/cli.md); a regression is not an error but exit code 1 from the verdict.
import { InputError, ToolError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { EXIT } from "./exit-codes.ts";
import type { Machine } from "../ports/machine.ts";
import { baselineCommand } from "./commands/baseline.ts";
import { compareCommand } from "./commands/compare.ts";
import { INGEST_SUMMARY, ingestCommand } from "./commands/ingest.ts";
import { goldenCommand } from "./commands/golden.ts";
import { historyCommand } from "./commands/history.ts";
import { initCommand } from "./commands/init.ts";
import { runCommand } from "./commands/run.ts";
import { mergeCommand } from "./commands/merge.ts";
import { runnerHookCommand } from "./commands/runner-hook.ts";
import { validateCommand } from "./commands/validate.ts";

type Command = (argv: readonly string[], deps: Machine) => Promise<number>;

const COMMANDS: ReadonlyMap<string, { run: Command; summary: string }> = new Map([
  ["ingest", { run: ingestCommand, summary: INGEST_SUMMARY }],
  [
    "validate",
    { run: validateCommand, summary: "check summary/report/config files against their schemas" },
  ],
  [
    "compare",
    { run: compareCommand, summary: "decide what changed between base and head summaries" },
  ],
  ["run", { run: runCommand, summary: "benchmark two commits in interleaved rounds and decide" }],
  ["merge", { run: mergeCommand, summary: "decide once over the folders of a sharded run" }],
  ["golden", { run: goldenCommand, summary: "check or update the golden output checksums" }],
  ["init", { run: initCommand, summary: "write the gate's workflows and a starter benchgate.yml" }],
  [
    "runner-hook",
    { run: runnerHookCommand, summary: "the benchmark runner's job-started check (fail closed)" },
  ],
  [
    "history",
    { run: historyCommand, summary: "keep the default branch's benchmark history on gh-pages" },
  ],
  [
    "baseline",
    {
      run: baselineCommand,
      summary: "store one side of a run as a reviewed baseline (baselines/NAME/)",
    },
  ],
]);

function usage(): string {
  // Two spaces after the longest name, so no name runs into its summary.
  const width = Math.max(...[...COMMANDS.keys()].map((name) => name.length)) + 2;
  const lines = [...COMMANDS].map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`);
  return `benchgate ${VERSION}: a performance regression gate for Criterion, hyperfine and Valgrind-counted benchmarks

Usage: benchgate <command> [options]   (benchgate <command> --help for details)

Commands:
${lines.join("\n")}

Exit codes: 0 pass, 1 the gate failed, 2 bad usage or invalid input, 3 tool or environment failure.`;
}

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function main(argv: readonly string[], deps: Machine, debug = false): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "-h" || name === "--help" || name === "help") {
      deps.out(usage() + "\n");
      return name === undefined ? EXIT.badInput : EXIT.pass;
    }
    if (name === "--version" || name === "-V") {
      deps.out(`${VERSION}\n`);
      return EXIT.pass;
    }
    const command = COMMANDS.get(name);
    if (command === undefined)
      throw new InputError(`unknown command ${JSON.stringify(name)} (try benchgate --help)`);
    return await command.run(rest, deps);
  } catch (error) {
    if (debug && error instanceof Error && error.stack !== undefined) deps.err(`${error.stack}\n`);
    if (error instanceof InputError) {
      deps.err(`benchgate: error: ${oneLine(error.describe())}\n`);
      return EXIT.badInput;
    }
    if (error instanceof ToolError) {
      if (error.details !== undefined) deps.err(`${printable(error.details)}\n`);
      deps.err(`benchgate: error: ${oneLine(error.message)}\n`);
      return EXIT.toolFailure;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    deps.err(
      `benchgate: internal error: ${oneLine(message)} (set BENCHGATE_DEBUG=1 for a stack trace)\n`,
    );
    return EXIT.toolFailure;
  }
}

/** Multi-line context (a stderr tail) keeps its lines but loses other control characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, " ").slice(-8000);
}

/** Error text can carry file content; keep it to one printable line. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return clean.length > 600 ? `${clean.slice(0, 600)}…` : clean;
}
