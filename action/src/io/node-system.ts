// SystemDeps on Node: child processes, directories, signals, SHA-256 and the fingerprint.
import { createHash } from "node:crypto";
import type { SystemDeps } from "../cli/deps.ts";
import { collectEnvironment } from "../environment/collect-environment.ts";
import { nodeDirs } from "./node-dirs.ts";
import { nodeFileReader } from "./node-files.ts";
import { nodeProcess } from "./node-process.ts";

function stringEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

export function nodeSystem(): SystemDeps {
  const env = stringEnv();
  return {
    proc: nodeProcess,
    dirs: nodeDirs,
    clock: { now: () => performance.now(), date: () => new Date() },
    sha256: (data) => createHash("sha256").update(data).digest("hex"),
    env,
    cwd: process.cwd(),
    environment: (cwd) =>
      collectEnvironment({
        reader: nodeFileReader,
        env,
        run: async (cmd, args) => {
          const r = await nodeProcess([cmd, ...args], {
            cwd,
            env,
            timeoutMs: 30_000,
            keepStdoutBytes: 64 * 1024,
          });
          return { exitCode: r.exitCode ?? -1, stdout: r.stdout };
        },
      }),
    interrupts: () => {
      const controller = new AbortController();
      let count = 0;
      const onSignal = (signal: NodeJS.Signals): void => {
        count += 1;
        // A second Ctrl-C while we clean up means "now": leave with the usual code.
        if (count > 1) process.exit(signal === "SIGINT" ? 130 : 143);
        process.stderr.write(
          `\nbenchgate: ${signal}: stopping the benchmark and removing worktrees (again to force)\n`,
        );
        controller.abort(signal);
      };
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      return {
        signal: controller.signal,
        dispose: () => {
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
        },
      };
    },
  };
}
