// Running a program without a shell, in our words. The real implementation is io/node-process.ts;
// the runner and git steps only sequence calls and never touch child_process directly.

export interface ProcessOptions {
  readonly cwd: string;
  /** The whole environment of the child (not merged with ours). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborting (Ctrl-C) stops the child and its descendants. */
  readonly signal?: AbortSignal;
  /** Both output streams are appended here, so a failure can be read in full afterwards. */
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
}

/** Runs argv without a shell. Rejects only when the program cannot be started. */
export type ProcessPort = (
  argv: readonly string[],
  options: ProcessOptions,
) => Promise<ProcessResult>;
