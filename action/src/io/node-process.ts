// ProcessPort on child_process: no shell, own process group so a timeout or Ctrl-C takes down
// `cargo bench` *and* the bench binary it started, output teed to a log file.
import { spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
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
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      killGroup(child.pid, "SIGTERM");
      killTimer ??= setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

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
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      log?.end();
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // The group may still hold grandchildren (a bench binary that ignored SIGTERM).
      if (timedOut || aborted) killGroup(child.pid, "SIGKILL");
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const finish = (): void =>
        resolve({
          exitCode: code,
          signal,
          timedOut,
          aborted,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderrTail,
          durationMs: performance.now() - started,
        });
      if (log === undefined) finish();
      else log.end(finish);
    });
  });
