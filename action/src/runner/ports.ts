// What the runner needs from the machine, in our words. The real implementations live in io/;
// the runner itself only sequences steps and never touches child_process or fs directly.

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

/** Directories the runner creates and removes. */
export interface DirPort {
  /** A new empty directory under the system temp dir. */
  makeTemp(prefix: string): Promise<string>;
  ensure(dir: string): Promise<void>;
  /** Removes a directory tree; no error when it is already gone. */
  remove(dir: string): Promise<void>;
  /** Copies a directory tree, keeping modification times (Cargo's fingerprints use them). */
  copyTree(from: string, to: string): Promise<void>;
  /**
   * Creates `file` exclusively, holding this process's id, or reports who holds it. A lock whose
   * process is gone is taken over.
   */
  lock(file: string): Promise<{ release(): Promise<void> } | { heldBy: string }>;
  /** Names in a directory, or [] when it does not exist. */
  names(dir: string): Promise<readonly string[]>;
}

export interface Clock {
  /** Milliseconds, monotonic. */
  readonly now: () => number;
  /** Wall-clock time for summaries. */
  readonly date: () => Date;
}
