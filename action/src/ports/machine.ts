// Everything the gate needs from the machine it runs on, in one value passed in: files,
// processes, directories, time, hashing, the environment and the console. The CLI and the action
// each build one (io/node-machine.ts); tests build one with captured output and a fixed clock,
// so commands run in-process without module mocking.
import type { Environment } from "../schemas/summary.gen.ts";
import type { Clock } from "./clock.ts";
import type { DirPort } from "./dirs.ts";
import type { FileReader, FileWriter } from "./files.ts";
import type { ProcessPort } from "./process.ts";
import type { ServicePort } from "./services.ts";

/** Hex SHA-256 of some bytes (golden outputs, baselines). */
export type Sha256 = (data: Uint8Array) => string;

/** Fires on Ctrl-C or SIGTERM until `dispose` is called. */
export interface Interrupts {
  readonly signal: AbortSignal;
  dispose(): void;
}

export interface Machine {
  readonly reader: FileReader;
  readonly writer: FileWriter;
  /** Standard output (results, JSON when no -o). */
  readonly out: (text: string) => void;
  /** Standard error (progress, warnings, the one error line). */
  readonly err: (text: string) => void;
  /**
   * A status line that replaces itself in place (`""` clears it): only when standard error is an
   * interactive terminal, never in a CI log or a pipe, where it would turn into garbage.
   */
  readonly status?: (text: string) => void;
  readonly proc: ProcessPort;
  /** Servers started for load suites, stopped with their whole process group. */
  readonly services: ServicePort;
  readonly dirs: DirPort;
  /** Monotonic time for durations, wall-clock time for reports and summaries. */
  readonly clock: Clock;
  readonly sha256: Sha256;
  /** The environment child processes start from. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** This machine's fingerprint as seen from `cwd` (docs/runner-host.md, "What benchgate records"). */
  readonly environment: (cwd: string) => Promise<Environment>;
  /** Starts listening for Ctrl-C and SIGTERM. */
  readonly interrupts: () => Interrupts;
}
