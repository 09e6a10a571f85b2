// The Machine on Node: files, child processes, directories, signals, SHA-256, the fingerprint and
// the console (io/node-terminal.ts).
import { createHash } from "node:crypto";
import type { Interrupts, Machine } from "../ports/machine.ts";
import { collectEnvironment } from "../environment/collect-environment.ts";
import { workflowCommandGuard } from "../render/workflow-commands.ts";
import { nodeDirs } from "./node-dirs.ts";
import { nodeFileReader, nodeFileWriter } from "./node-files.ts";
import { nodeProcess } from "./node-process.ts";
import { nodeServices } from "./node-services.ts";
import { nodeTerminal } from "./node-terminal.ts";

function stringEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * Credentials the runner gives the action that benchmarked code must never see: the action's
 * inputs (the GitHub token among them) and the runner's own tokens. A child process inherits
 * only what is left. (Code running as the same user can still read the parent's initial
 * environment from /proc; docs/action.md says what that means for fork PRs.)
 */
export function withoutCredentials(env: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (
      !/^(INPUT_|ACTIONS_(RUNTIME|ID_TOKEN_REQUEST|CACHE|RESULTS)_|GITHUB_TOKEN$|GH_TOKEN$)/.test(k)
    )
      kept[k] = v;
  return kept;
}

interface NodeMachineOptions {
  /** Children get no credentials (the action: cargo and benchmarks run the PR's code). */
  readonly scrubCredentials?: boolean;
  /**
   * Where progress and errors go; standard error unless given (the action logs to stdout). Text
   * given to it has passed the workflow-command guard (docs/threat-model.md, O6).
   */
  readonly err?: (text: string) => void;
}

export function nodeMachine(options: NodeMachineOptions = {}): Machine {
  const env = options.scrubCredentials === true ? withoutCredentials(stringEnv()) : stringEnv();
  const terminal = nodeTerminal();
  const err = options.err === undefined ? terminal.err : guarded(options.err);
  // Carriage return and erase-line redraw one line; cut to the width so it never wraps.
  const status =
    options.err === undefined && process.stderr.isTTY && env["TERM"] !== "dumb"
      ? (text: string) =>
          terminal.err(`\r\x1b[K${text.slice(0, Math.max(20, (process.stderr.columns || 80) - 1))}`)
      : undefined;
  return {
    ...(status === undefined ? {} : { status }),
    reader: nodeFileReader,
    writer: nodeFileWriter,
    out: terminal.out,
    err,
    proc: nodeProcess,
    services: nodeServices,
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
    interrupts: () => listenForInterrupts(err),
  };
}

function guarded(write: (text: string) => void): (text: string) => void {
  const guard = workflowCommandGuard();
  return (text) => write(guard(text));
}

/** Where signals come from: the process, or an emitter in tests. */
interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

/**
 * Ctrl-C or SIGTERM aborts the signal; a second one exits at once. The message is the same for
 * every command (a run stops its benchmarks and removes its worktrees, `history append` stops
 * its push), so it names no command's work.
 */
export function listenForInterrupts(
  err: (text: string) => void,
  source: SignalSource = process,
): Interrupts {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    count += 1;
    // A second Ctrl-C while we clean up means "now": leave with the usual code.
    if (count > 1) process.exit(signal === "SIGINT" ? 130 : 143);
    err(`\nbenchgate: ${signal}: stopping and cleaning up (again to force)\n`);
    controller.abort(signal);
  };
  source.on("SIGINT", onSignal);
  source.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      source.off("SIGINT", onSignal);
      source.off("SIGTERM", onSignal);
    },
  };
}
