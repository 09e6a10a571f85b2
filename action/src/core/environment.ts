// Where base and head ran (docs/runner-host.md, "What benchgate warns about"): differences between the two sides are shown in the
// report, and a machine that is visibly not pinned gets a warning, because the verdict's
// confidence rests on both sides seeing the same machine.
import type { Environment } from "../schemas/summary.gen.ts";

/** Fields whose difference between the sides can change timings. */
export const COMPARED = [
  "fingerprint",
  "cpu_model",
  "logical_cpus",
  "online_cpus",
  "isolated_cpus",
  "governor",
  "turbo",
  "smt",
  "kernel",
  "os",
  "rustc",
  "cargo",
  "memory_bytes",
  "runner_name",
] as const satisfies readonly (keyof Environment)[];

function show(value: unknown): string {
  return value === undefined ? "unknown" : JSON.stringify(value);
}

/**
 * Warnings for one machine that is visibly not pinned, each a fact and what it means for the
 * timings ("load average 0.86 at start on 2 CPUs" alone reads like an alarm when it means "this
 * runner is not dedicated"); empty when nothing says it is noisy.
 */
export function pinningWarnings(env: Environment): string[] {
  const warnings: string[] = [];
  if (env.governor !== undefined && env.governor !== "performance") {
    warnings.push(
      `CPU governor is ${JSON.stringify(env.governor)}, not "performance": the clock speed follows the load, so timings drift (a dedicated runner sets the performance governor)`,
    );
  }
  if (env.turbo === true)
    warnings.push(
      "turbo/boost is on: the clock speed depends on heat and on what the other cores do, so timings drift (a dedicated runner turns it off)",
    );
  if (env.smt === "on" || env.smt === "forceon") {
    warnings.push(
      "SMT (hyper-threading) is on: work on a benchmark's sibling thread slows it, so timings are noisier (a dedicated runner turns SMT off or keeps the siblings idle)",
    );
  }
  const cpus = env.logical_cpus;
  const load = env.load_average?.[0];
  if (cpus !== undefined && load !== undefined && load > Math.max(0.5, 0.25 * cpus)) {
    warnings.push(
      `load average ${load.toFixed(2)} at start on ${cpus} CPUs: other work is running on this machine, so timings are noisier (a dedicated, pinned runner avoids it)`,
    );
  }
  return warnings;
}

export interface EnvironmentCheck {
  readonly mismatch: boolean;
  readonly differences: string[];
  readonly warnings: string[];
}

export function checkEnvironments(
  base: Environment | undefined,
  head: Environment | undefined,
): EnvironmentCheck {
  const differences: string[] = [];
  const warnings: string[] = [];
  if (base !== undefined && head !== undefined) {
    for (const key of COMPARED) {
      const a = base[key];
      const b = head[key];
      if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b)) {
        differences.push(`${key}: base ${show(a)}, head ${show(b)}`);
      }
    }
  } else if (base !== undefined || head !== undefined) {
    warnings.push(`no environment recorded for the ${base === undefined ? "base" : "head"} side`);
  }
  for (const [side, env] of [
    ["base", base],
    ["head", head],
  ] as const) {
    if (env !== undefined) warnings.push(...pinningWarnings(env).map((w) => `${side}: ${w}`));
  }
  return { mismatch: differences.length > 0, differences, warnings: [...new Set(warnings)] };
}
