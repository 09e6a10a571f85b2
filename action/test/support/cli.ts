// Runs the real CLI in a child process, as a user or CI would.
import { spawnSync } from "node:child_process";
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
