// `kind: instructions`: commands whose instruction count is the benchmark, each run under
// `valgrind --tool=cachegrind --cache-sim=no` with ASLR off (`setarch -R`), for the CLI start-up
// case and for harness binaries of any kind. A count is only deterministic if both sides run
// byte-identical processes apart from the code under test, so:
// - the environment is not the side's but a fixed one (PATH, LC_ALL and the suite's `env:`):
//   the environment's size moves the stack, and the libc start-up code walks it;
// - a program under {target} or {worktree} is copied to one path that both sides run it from,
//   so argv[0] and the auxiliary vector are the same bytes;
// - Valgrind's output file is named by the round's tag and the command's index, never by the
//   command's name.
import path from "node:path";
import type { InstructionsSuite } from "../../../schemas/config.gen.ts";
import { argv, unique, type Argv } from "../../config-checks.ts";
import { expandArgv, type Placeholders } from "../../placeholders.ts";
import { ownCountThresholds } from "../count-thresholds.ts";
import type { OwnCountThresholds, SuiteBase, SuiteKind, SuiteStep } from "../suite-kind.ts";
import { filterCommands, narrowCommands } from "../named-commands.ts";

/** One command under Valgrind, a round-time guess: a slow start. */
const COMMAND_MS = 2000;

export interface InstructionsSuitePlan extends SuiteBase {
  readonly kind: "instructions";
  readonly commands: readonly { readonly name: string; readonly command: Argv }[];
  readonly env: Readonly<Record<string, string>>;
  readonly counts: OwnCountThresholds;
}

/** The environment every command runs with, on both sides. */
export const BASE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  LC_ALL: "C",
});

/** Valgrind's options: instructions only (no cache simulation: 2–3× faster, and exact). */
function valgrindArgv(outFile: string): Argv {
  return [
    "setarch",
    "-R",
    "valgrind",
    "--tool=cachegrind",
    "--cache-sim=no",
    `--cachegrind-out-file=${outFile}`,
  ];
}

/** A safe file name for the staged copy: the program's own, or `program`. */
function stagedName(program: string): string {
  const name = path.basename(program);
  return /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,127}$/.test(name) ? name : "program";
}

/** Whether a program names one side's files (and so must be staged to a shared path). */
function isSideProgram(raw: string): boolean {
  return /^\{(target|worktree)\}/.test(raw);
}

function commandStep(
  plan: InstructionsSuitePlan,
  index: number,
  places: Placeholders,
  dir: string,
  tag: string,
): SuiteStep {
  const c = plan.commands[index] as InstructionsSuitePlan["commands"][number];
  const [program, ...args] = expandArgv(c.command, places);
  const outFile = path.join(dir, tag, `${index + 1}.cachegrind.out`);
  // `stage/<index>/` is one folder for both sides: the same path whichever side ran last.
  const staged = isSideProgram(c.command[0])
    ? path.join(dir, "stage", String(index + 1), stagedName(program))
    : undefined;
  return {
    argv: [...valgrindArgv(outFile), staged ?? program, ...args],
    exactEnv: { ...BASE_ENV, ...plan.env },
    ...(staged === undefined ? {} : { stage: { from: program, to: staged } }),
    ...(index === 0 ? { freshDir: path.join(dir, tag) } : {}),
    output: {
      format: "cachegrind",
      path: outFile,
      name: c.name,
      missing: `valgrind did not write ${path.basename(outFile)} (see the log)`,
    },
  };
}

export const instructionsSuite: SuiteKind<InstructionsSuite, InstructionsSuitePlan> = {
  name: "instructions",
  plan(raw, base, at) {
    unique(
      raw.commands.map((c) => c.name),
      (j) => `${at.key}/commands/${j}/name`,
      "instructions command name",
      at.source,
    );
    return {
      kind: "instructions",
      ...base,
      commands: raw.commands.map((c, j) => ({
        name: c.name,
        command: argv(c.command, `${at.key}/commands/${j}/command`, at.source),
      })),
      env: Object.fromEntries(
        Object.entries(raw.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      counts: ownCountThresholds(raw, at),
    };
  },
  // Commands are kept when their name matches.
  filter: filterCommands,
  narrow: narrowCommands,
  idsBeforeRun: (plan) => plan.commands.map((c) => c.name),
  // No pairUnit: under schedule: pairs one process runs them all, since its counts are exact
  // whatever runs beside them and cutting it would only move its staged programs.
  estimateSideMs: (_plan, count) => (count === undefined ? undefined : count * COMMAND_MS),
  deterministicCounts: { thresholds: ownCountThresholds },
  // Where: the command as measured (staged program, fixed environment), under Callgrind instead
  // of Cachegrind; like Cachegrind here, without its child processes.
  profileCommand(plan, id, places) {
    const c = plan.commands.find((command) => command.name === id);
    if (c === undefined) return undefined;
    const argv = expandArgv(c.command, places);
    return {
      argv,
      ...(isSideProgram(c.command[0]) ? { stage: stagedName(argv[0]) } : {}),
      exactEnv: { ...BASE_ENV, ...plan.env },
      children: false,
      wholeRun: "a command's instructions, one run on each side",
    };
  },
  step(plan, run) {
    const places = { target: run.paths.target, worktree: run.paths.worktree };
    return plan.commands.map((_, i) => commandStep(plan, i, places, run.dir, run.tag));
  },
};
