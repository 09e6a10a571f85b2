// Golden outputs in a checked-out tree: run the configured commands there, then check them
// against that tree's checksums file (`run` and `golden check`) or rewrite it (`golden update`).
// The checksums come from the same tree as the code (the head side in `run`): a PR that changes
// an output on purpose updates the file in the same diff, where reviewers see it.
import path from "node:path";
import type { GoldenPlan } from "../config/run-config.ts";
import { ToolError } from "../errors.ts";
import { checkGolden, goldenText, type GoldenOutput } from "../golden/check-golden.ts";
import type { Sha256 } from "../ports/machine.ts";
import { formatChecksums, parseChecksums } from "../golden/checksums.ts";
import { goldenHash } from "../golden/check-golden.ts";
import { MAX_GOLDEN_STDOUT_BYTES, runGolden } from "../golden/run-golden.ts";
import type { FileReader, FileWriter } from "../ports/files.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";
import type { ProcessPort, ProcessResult } from "../ports/process.ts";
import { escapeFailure, InterruptedError } from "../exec/run-step.ts";
import { expandArgv, type Placeholders } from "../config/placeholders.ts";
import { joinInside } from "../config/config-checks.ts";

interface GoldenDeps {
  readonly proc: ProcessPort;
  readonly reader: FileReader;
  readonly sha256: Sha256;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

const MAX_CHECKSUMS_BYTES = 4 * 1024 * 1024;

/**
 * The process port the golden commands run through: a program that cannot start names the likely
 * cause (a binary no build: step made), Ctrl-C stops the run instead of being recorded as a
 * killed command, and a command that leaves a process running is a tool failure.
 */
function goldenProcess(proc: ProcessPort): ProcessPort {
  return async (argv, options) => {
    let result: ProcessResult;
    try {
      result = await proc(argv, options);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      throw new ToolError(
        `golden command ${argv.join(" ")} could not start: ${(error as Error).message}${missing ? " (is it built by a build: step of benchgate.yml?)" : ""}`,
        { cause: error },
      );
    }
    if (result.aborted) throw new InterruptedError("interrupted during the golden commands");
    if ((result.escaped ?? []).length > 0)
      throw new ToolError(escapeFailure(`golden command ${argv.join(" ")}`, result.escaped ?? []));
    return result;
  };
}

/** Runs every golden command in `root` (the tree's top), with `{target}`/`{worktree}` expanded. */
export async function produceGoldenOutputs(
  plan: GoldenPlan,
  root: string,
  places: Placeholders,
  deps: GoldenDeps,
  logFile?: string,
): Promise<GoldenOutput[]> {
  const commands = plan.commands.map((c) => ({
    name: c.name,
    command: expandArgv(c.command, places),
    timeoutMs: c.timeoutMs,
  }));
  return runGolden(commands, goldenProcess(deps.proc), {
    cwd: root,
    env: deps.env,
    maxStdoutBytes: MAX_GOLDEN_STDOUT_BYTES,
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    ...(logFile === undefined ? {} : { logFile }),
  });
}

/** Checks outputs against `root`'s checksums file; a missing file means no output is recorded. */
export async function checkGoldenIn(
  plan: GoldenPlan,
  root: string,
  outputs: readonly GoldenOutput[],
  deps: Pick<GoldenDeps, "reader" | "sha256">,
): Promise<GoldenResult[]> {
  const file = joinInside(root, plan.checksums, "golden.checksums");
  const expected =
    (await deps.reader.kindOf(file)) === undefined
      ? []
      : parseChecksums(await deps.reader.readText(file, MAX_CHECKSUMS_BYTES), plan.checksums);
  const expectedText = new Map<string, string>();
  if (plan.outputs !== undefined) {
    for (const { name } of expected) {
      const stored = joinInside(root, path.join(plan.outputs, `${name}.out`), "golden.outputs");
      if ((await deps.reader.kindOf(stored)) === "file")
        expectedText.set(name, await deps.reader.readText(stored, MAX_GOLDEN_STDOUT_BYTES + 1024));
    }
  }
  return checkGolden(expected, outputs, {
    sha256: deps.sha256,
    expectedText,
    checksumsFile: plan.checksums,
  });
}

/** Rewrites the checksums file (and `<name>.out` files when `outputs` is set) from `outputs`. */
export async function writeGolden(
  plan: GoldenPlan,
  root: string,
  outputs: readonly GoldenOutput[],
  deps: { readonly writer: FileWriter; readonly sha256: Sha256 },
): Promise<string[]> {
  const written: string[] = [];
  if (plan.outputs !== undefined) {
    for (const o of outputs) {
      const file = path.join(plan.outputs, `${o.name}.out`);
      await deps.writer.writeText(
        joinInside(root, file, "golden.outputs"),
        goldenText(o.stdout, o.exitCode),
      );
      written.push(file);
    }
  }
  const entries = outputs.map((o) => ({ name: o.name, sha256: goldenHash(o, deps.sha256) }));
  await deps.writer.writeText(
    joinInside(root, plan.checksums, "golden.checksums"),
    formatChecksums(entries),
  );
  written.push(plan.checksums);
  return written;
}
