// Running a program without a shell, in our words. The real implementation is io/node-process.ts;
// the runner and git steps only sequence calls and never touch child_process directly.
// Nothing a program starts outlives it: when it ends (or its time runs out), every process it
// left behind is killed, and those still alive after it ended by itself are named in the result.

export interface ProcessOptions {
  readonly cwd: string;
  /** The whole environment of the child (not merged with ours). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborting (Ctrl-C) stops the child and all its descendants. */
  readonly signal?: AbortSignal;
  /**
   * Both output streams are appended here, so a failure can be read in full afterwards; capped
   * (the start of the file and each process's last output, with a note of the bytes dropped).
   */
  readonly logFile?: string;
  /** Keep up to this many bytes of stdout in the result (default 0: discard). */
  readonly keepStdoutBytes?: number;
  /** Called with each complete line the child writes (to follow Criterion's progress). */
  readonly onLine?: (line: string, stream: "stdout" | "stderr") => void;
}

export interface ProcessResult {
  /** null when the child was killed (timeout, abort or a signal). */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly stdout: string;
  /** The last few KiB of stderr, for error messages. */
  readonly stderrTail: string;
  readonly durationMs: number;
  /**
   * CPU time (user + system) the step's processes used, when the machine can tell (the step's
   * cgroup v2): beside durationMs, the share of a CPU the step got — well below its usual share,
   * it ran on a busy, time-shared machine.
   */
  readonly cpuMs?: number;
  /**
   * Processes the child started that were still alive after it ended by itself (a daemon, a
   * worker in a process group of its own, a background job): all killed since. Absent or empty
   * when nothing was left, and after a timeout or an abort, which kill everything anyway.
   */
  readonly escaped?: readonly EscapedProcess[];
}

/** A process that outlived the program that started it; benchgate killed it. */
export interface EscapedProcess {
  /** null: a process benchgate could not see still held the output pipes (they were closed). */
  readonly pid: number | null;
  /** Its command name (control characters replaced), or what held the pipes. */
  readonly command: string;
}

/**
 * Runs argv without a shell and resolves once it has ended and nothing it started is left; the
 * timeout holds whatever its descendants do. Rejects only when the program cannot be started.
 */
export type ProcessPort = (
  argv: readonly string[],
  options: ProcessOptions,
) => Promise<ProcessResult>;
