// `benchgate golden check|update` without its command line: build the checkout, run its golden
// commands, check their outputs against its checksums file and, for update, rewrite that file
// (docs/budgets-and-golden.md). The command prints what this returns and picks the exit code.
import path from "node:path";
import { resolveRunConfig, type GoldenPlan, type RunConfig } from "../config/run-config.ts";
import { InputError } from "../errors.ts";
import type { GoldenOutput } from "../golden/check-golden.ts";
import { readConfigFile } from "../ingest/read-document.ts";
import type { Machine } from "../ports/machine.ts";
import { runStep } from "../exec/run-step.ts";
import { checkGoldenIn, produceGoldenOutputs, writeGolden } from "../runner/golden-step.ts";
import { expandArgv, type Placeholders } from "../config/placeholders.ts";
import type { GoldenResult } from "../schemas/report.gen.ts";

interface GoldenCheckOptions {
  /** check compares only; update also rewrites the checksums (and `<name>.out`) files. */
  readonly action: "check" | "update";
  /** The project's root: the checkout whose outputs and checksums file are used. */
  readonly repo: string;
  /** benchgate.yml, as an absolute path. */
  readonly configFile: string;
  /** Cargo's target directory for {target}, relative to `repo`; default $CARGO_TARGET_DIR, else
   * target. */
  readonly targetDir?: string;
  /** Run the config's build: commands first. */
  readonly build: boolean;
}

export interface GoldenCheck {
  /** The checksums file, as the config names it. */
  readonly checksums: string;
  readonly outputs: readonly GoldenOutput[];
  /** Each output against the checksums file as it was before any update. */
  readonly results: readonly GoldenResult[];
  /** update: the files rewritten, relative to the repo. */
  readonly written?: readonly string[];
}

/** The config's run settings and its golden block; a config without one is a usage error. */
async function loadGoldenConfig(
  configFile: string,
  machine: Machine,
): Promise<{ readonly config: RunConfig; readonly plan: GoldenPlan }> {
  const config = resolveRunConfig(await readConfigFile(machine.reader, configFile), configFile, {
    needSuites: false,
  });
  const plan = config.golden;
  if (plan === undefined)
    throw new InputError("no golden: block (golden.checksums and golden.commands)", {
      source: configFile,
    });
  return { config, plan };
}

/** The target directory {target} names: the option, else a non-empty $CARGO_TARGET_DIR. */
function targetDirOf(options: GoldenCheckOptions, env: Machine["env"]): string {
  const envTarget = env["CARGO_TARGET_DIR"];
  return path.resolve(
    options.repo,
    options.targetDir ?? (envTarget !== undefined && envTarget !== "" ? envTarget : "target"),
  );
}

/** The config's build: commands, in the checkout, each said on stderr before it runs. */
async function buildCheckout(
  config: RunConfig,
  places: Placeholders,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
  machine: Machine,
): Promise<void> {
  for (const step of config.build) {
    const command = expandArgv(step.command, places);
    machine.err(`benchgate: build: ${command.join(" ")}\n`);
    await runStep(machine.proc, `build: ${command.join(" ")}`, command, {
      cwd: places.worktree,
      env,
      timeoutMs: step.timeoutMs,
      signal,
    });
  }
}

/** Builds (unless told not to), runs the golden commands, checks them and, for update, writes. */
export async function checkGoldenOutputs(
  options: GoldenCheckOptions,
  machine: Machine,
): Promise<GoldenCheck> {
  const { repo } = options;
  const { config, plan } = await loadGoldenConfig(options.configFile, machine);
  const target = targetDirOf(options, machine.env);
  const places = { target, worktree: repo };
  const env = { ...machine.env, CARGO_TARGET_DIR: target };
  const interrupts = machine.interrupts();
  try {
    if (options.build) await buildCheckout(config, places, env, interrupts.signal, machine);
    const goldenDeps = { ...machine, env, signal: interrupts.signal };
    const outputs = await produceGoldenOutputs(plan, repo, places, goldenDeps);
    const results = await checkGoldenIn(plan, repo, outputs, goldenDeps);
    if (options.action === "check") return { checksums: plan.checksums, outputs, results };
    const written = await writeGolden(plan, repo, outputs, machine);
    return { checksums: plan.checksums, outputs, results, written };
  } finally {
    interrupts.dispose();
  }
}
