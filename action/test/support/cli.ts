// Runs the real CLI in a child process, as a user or CI would.
import { spawnSync } from "node:child_process";
import { expect } from "vitest";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const CLI_SOURCE = path.join(ROOT, "action/src/cli/index.ts");

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; entry?: string } = {},
): CliResult {
  const result = spawnSync(process.execPath, [options.entry ?? CLI_SOURCE, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: "utf8",
    env: { ...process.env, BENCHGATE_DEBUG: "" },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Asserts the CLI's bad-input contract (docs/cli.md): exit 2, exactly one line on stderr, prefixed
 * "benchgate: error: ", no stack trace. Returns that line for the caller's specific checks.
 */
export function expectInputError(result: CliResult, label = ""): string {
  expect(result.status, label).toBe(2);
  const lines = result.stderr.trim().split("\n");
  expect(lines, label).toHaveLength(1);
  expect(lines[0], label).toMatch(/^benchgate: error: /);
  expect(result.stderr, label).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

/** A throw-away repository with base main~1 and head main, and where a run of it writes. */
export interface RunTarget {
  readonly dir: string;
  readonly out: string;
  readonly cache: string;
  /** --config: a benchgate.yml outside the repository (default: base's own). */
  readonly config?: string;
}

/**
 * `benchgate run` of main~1 against main in `target.dir`, with its own --out and --cache-dir,
 * and any further flags.
 */
export function runRepo(target: RunTarget, extra: readonly string[] = []): CliResult {
  return runCli([
    "run",
    "--repo",
    target.dir,
    "--base",
    "main~1",
    "--head",
    "main",
    "--out",
    target.out,
    "--cache-dir",
    target.cache,
    ...(target.config === undefined ? [] : ["--config", target.config]),
    ...extra,
  ]);
}
