// ProcessPort on child_process: no shell, own process group so a timeout or Ctrl-C takes down
// `cargo bench` *and* the bench binary it started, output teed to a log file.
import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import type { Readable } from "node:stream";
import type { ProcessOptions, ProcessPort, ProcessResult } from "../ports/process.ts";

/** How long a child gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3000;
const STDERR_TAIL_BYTES = 16 * 1024;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function openLog(file: string | undefined): WriteStream | undefined {
  return file === undefined ? undefined : createWriteStream(file, { flags: "a" });
}

export const nodeProcess: ProcessPort = (argv, options: ProcessOptions) =>
  new Promise<ProcessResult>((resolve, reject) => {
    const [program, ...args] = argv;
    if (program === undefined) {
      reject(new Error("empty command"));
      return;
    }
    const started = performance.now();
    if (options.signal?.aborted === true) {
      resolve({
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: true,
        stdout: "",
        stderrTail: "",
        durationMs: 0,
      });
      return;
    }
    const log = openLog(options.logFile);
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const stops = watchForStop(child, options);
    const output = collectOutput(child, options, log);
    child.on("error", (error) => {
      stops.release();
      log?.end();
      reject(error);
    });
    child.on("close", (code, signal) => {
      stops.exited();
      const finish = (): void =>
        resolve({
          exitCode: code,
          signal,
          timedOut: stops.timedOut,
          aborted: stops.aborted,
          stdout: output.stdout(),
          stderrTail: output.stderrTail(),
          durationMs: performance.now() - started,
        });
      if (log === undefined) finish();
      else log.end(finish);
    });
  });

interface StopWatch {
  /** Whether the child was stopped because its time ran out, or because of the signal. */
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** The child could not start: drop the timer and the abort listener. */
  release(): void;
  /** The child exited: also finish off its group if we stopped it, and the pending SIGKILL. */
  exited(): void;
}

/** Stops the child's process group on timeout or abort: SIGTERM, then SIGKILL after a grace. */
function watchForStop(child: ChildProcess, options: ProcessOptions): StopWatch {
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    killGroup(child.pid, "SIGTERM");
    killTimer ??= setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
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
      options.signal?.removeEventListener("abort", onAbort);
    },
    exited: (): void => {
      clearTimeout(timer);
      // The group may still hold grandchildren (a bench binary that ignored SIGTERM).
      if (watch.timedOut || watch.aborted) killGroup(child.pid, "SIGKILL");
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
  child: ChildProcessByStdio<null, Readable, Readable>,
  options: ProcessOptions,
  log: WriteStream | undefined,
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
