// ProcessPort on child_process: no shell, its own session and process group, every process it
// starts contained (./process-containment.ts) so a timeout or Ctrl-C takes down `cargo bench`,
// the bench binary it started and anything that daemonized on the way; output teed to a capped
// log. The result comes when the program has exited and nothing it started is left, not when
// its pipes close: a grandchild that keeps stdout open must not hold the run forever.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import type {
  EscapedProcess,
  ProcessOptions,
  ProcessPort,
  ProcessResult,
} from "../ports/process.ts";
import { openCappedLog, type CappedLog } from "./capped-log.ts";
import { systemContainment, type Containment, type StepBox } from "./process-containment.ts";
import type { ProcEntry } from "./proc-table.ts";

/** How long a child gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3000;
/** Once every process benchgate can find is gone, how long the pipes may take to close. */
export const PIPE_DRAIN_MS = 2000;
const STDERR_TAIL_BYTES = 16 * 1024;

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** As a result names them: the command name without control characters. */
export function escapedOf(entries: readonly ProcEntry[]): EscapedProcess[] {
  return entries.map((p) => ({
    pid: p.pid,
    // eslint-disable-next-line no-control-regex
    command: p.command.replace(/[\u0000-\u001f\u007f]/g, "?"),
  }));
}

/** What held the pipes when no process benchgate could find was left. */
export const UNSEEN_PIPE_HOLDER: EscapedProcess = {
  pid: null,
  command: "a process benchgate could not find that held its stdout or stderr open",
};

/**
 * Resolves true once both output pipes have closed, or false after `ms` (then they are destroyed,
 * so the run does not wait on a process that escaped every mechanism).
 */
export function pipesClosed(child: Child, ms: number): Promise<boolean> {
  const open = (): boolean => !child.stdout.closed || !child.stderr.closed;
  if (!open()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(false);
    }, ms);
    const check = (): void => {
      if (open()) return;
      clearTimeout(timer);
      resolve(true);
    };
    child.stdout.once("close", check);
    child.stderr.once("close", check);
  });
}

/** Spawns the box's argv as the leader of a new session and process group. */
export function spawnBoxed(box: StepBox, cwd: string): Child {
  const [program, ...args] = box.argv;
  const child = spawn(program ?? "", args, {
    cwd,
    env: box.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid !== undefined) box.adopt(child.pid);
  return child;
}

/** A ProcessPort whose steps are contained by `containment` (default: the machine's best). */
export function makeNodeProcess(
  containment: () => Promise<Containment> = systemContainment,
): ProcessPort {
  return async (argv, options) => {
    if (argv[0] === undefined) throw new Error("empty command");
    const box = await (await containment()).box(argv, options.env, options.cwd);
    // Checked after the box is made (which may wait on the file system), just before the spawn.
    if (options.signal?.aborted === true) {
      await box.release();
      return {
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: true,
        stdout: "",
        stderrTail: "",
        durationMs: 0,
      };
    }
    return runBoxed(box, options).finally(() => box.release());
  };
}

export const nodeProcess: ProcessPort = makeNodeProcess();

function runBoxed(box: StepBox, options: ProcessOptions): Promise<ProcessResult> {
  return new Promise<ProcessResult>((resolve, reject) => {
    const started = performance.now();
    const log = options.logFile === undefined ? undefined : openCappedLog(options.logFile);
    const child = spawnBoxed(box, options.cwd);
    const stops = watchForStop(child, box, options);
    const output = collectOutput(child, options, log);
    child.on("error", (error) => {
      stops.release();
      void box.killAll().then(async () => {
        await log?.end();
        reject(error);
      });
    });
    child.on("exit", (code, signal) => {
      stops.release();
      void (async () => {
        // Whatever is still alive now outlived the program: an escape, unless we were stopping
        // everything anyway.
        const left = stops.timedOut || stops.aborted ? [] : box.members();
        const survivors = await box.killAll();
        // Read before release removes the cgroup: every process of the step has ended by now.
        const cpuMs = box.cpuMs?.();
        const closed = await pipesClosed(child, PIPE_DRAIN_MS);
        await log?.end();
        const escaped = [
          ...escapedOf([...left, ...survivors.filter((s) => !left.some((l) => l.pid === s.pid))]),
          ...(closed ? [] : [UNSEEN_PIPE_HOLDER]),
        ];
        resolve({
          exitCode: code,
          signal,
          timedOut: stops.timedOut,
          aborted: stops.aborted,
          stdout: output.stdout(),
          stderrTail: output.stderrTail(),
          durationMs: performance.now() - started,
          ...(cpuMs === undefined ? {} : { cpuMs }),
          ...(escaped.length === 0 ? {} : { escaped }),
        });
      })();
    });
  });
}

interface StopWatch {
  /** Whether the child was stopped because its time ran out, or because of the signal. */
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** The child exited or could not start: drop the timers and the abort listener. */
  release(): void;
}

/**
 * Stops every process of the step on timeout or abort: SIGTERM, then SIGKILL after a grace. The
 * SIGKILL also reaches a main process that ignores SIGTERM, whose exit then ends the step.
 */
function watchForStop(child: Child, box: StepBox, options: ProcessOptions): StopWatch {
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (child.pid !== undefined) box.signalAll("SIGTERM");
    killTimer ??= setTimeout(() => void box.killAll(), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => {
    watch.timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = (): void => {
    watch.aborted = true;
    stop();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const watch = {
    timedOut: false,
    aborted: false,
    release: (): void => {
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
    },
  };
  return watch;
}

/**
 * Tees both streams to the log, hands complete lines to `onLine`, and keeps the first
 * `keepStdoutBytes` of stdout and the last STDERR_TAIL_BYTES of stderr for the result.
 */
function collectOutput(
  child: Child,
  options: ProcessOptions,
  log: CappedLog | undefined,
): { stdout(): string; stderrTail(): string } {
  const keep = options.keepStdoutBytes ?? 0;
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderrTail = "";
  const partial = { stdout: "", stderr: "" };
  const lines = (stream: "stdout" | "stderr", text: string): void => {
    if (options.onLine === undefined) return;
    const parts = (partial[stream] + text).split(/\r?\n|\r/);
    partial[stream] = (parts.pop() ?? "").slice(-64 * 1024);
    for (const line of parts) options.onLine(line, stream);
  };
  child.stdout.on("data", (chunk: Buffer) => {
    log?.write(chunk);
    lines("stdout", chunk.toString("utf8"));
    if (stdoutBytes < keep) {
      stdout.push(chunk.subarray(0, keep - stdoutBytes));
      stdoutBytes += Math.min(chunk.length, keep - stdoutBytes);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    log?.write(chunk);
    const text = chunk.toString("utf8");
    stderrTail = (stderrTail + text).slice(-STDERR_TAIL_BYTES);
    lines("stderr", text);
  });
  return { stdout: () => Buffer.concat(stdout).toString("utf8"), stderrTail: () => stderrTail };
}
