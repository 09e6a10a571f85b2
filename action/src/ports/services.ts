// Long-running processes that other commands talk to (the HTTP server of a load suite), in our
// words. The real implementation is io/node-services.ts; the runner only sequences these calls.
// A service runs in its own process group, so stopping it also stops whatever it started (a
// wrapper script's interpreter, a worker pool); whatever left the group (a daemon, a worker in a
// group of its own) is found and killed too, and named: nothing outlives the suite.
import type { EscapedProcess } from "./process.ts";

export interface ServiceOptions {
  readonly cwd: string;
  /** The whole environment of the service (not merged with ours). */
  readonly env: Readonly<Record<string, string>>;
  /** Both output streams are appended here, capped as a step's log is (ports/process.ts). */
  readonly logFile?: string;
}

/** How a service ended: by itself (a crash, a bad flag) or because it was stopped. */
export interface ServiceExit {
  /** null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** How the stop went: how the service ended, and what outlived its process group. */
export interface ServiceStop {
  readonly exit: ServiceExit;
  /** Processes it started that were still alive after its group was gone: all killed since. */
  readonly escaped: readonly EscapedProcess[];
}

/** What /proc says about the service's process group at one moment. */
export interface ServiceUsage {
  /** Resident memory of every process of the group, summed. */
  readonly rssBytes: number;
  /** Each process's peak resident memory (VmHWM), summed: an upper bound of the group's peak. */
  readonly peakRssBytes: number;
  /** Open file descriptors of every process of the group, summed. */
  readonly openFiles: number;
  readonly processes: number;
}

export interface RunningService {
  readonly pid: number;
  /** How it ended, once it has; undefined while it runs. */
  exited(): ServiceExit | undefined;
  /** The last few KiB of its stderr (and stdout), for error messages. */
  outputTail(): string;
  /**
   * SIGTERM to the whole group, SIGKILL after `graceMs`, then SIGKILL to every other process it
   * started; resolves once none is left, and rejects when one survives SIGKILL. Safe to call
   * again or after the service exited.
   */
  stop(graceMs: number): Promise<ServiceStop>;
}

export interface ServicePort {
  /** Starts argv without a shell; rejects only when the program cannot be started. */
  start(argv: readonly string[], options: ServiceOptions): Promise<RunningService>;
  /** A TCP port on 127.0.0.1 that nothing listens on right now. */
  freePort(): Promise<number>;
  /**
   * One GET of `url`: undefined for a 2xx answer, otherwise why not (ECONNREFUSED, status 503,
   * no answer within …), for the error when the service never becomes ready. A redirect is not
   * followed (it could point anywhere) and is not ready.
   */
  probe(url: string, timeoutMs: number): Promise<string | undefined>;
  /** The group's memory and open files; undefined once no process of it is left. */
  usage(pid: number): Promise<ServiceUsage | undefined>;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
