// What the CLI needs from the world, passed in so tests run commands in-process without mocks.
import type { Sha256 } from "../golden/check-golden.ts";
import type { FileReader, FileWriter } from "../ports.ts";
import type { Clock, DirPort, ProcessPort } from "../runner/ports.ts";
import type { Environment } from "../schemas/summary.gen.ts";

/** Processes, directories and signals: only `run` and `golden` need these. */
export interface SystemDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly clock: Clock;
  readonly sha256: Sha256;
  /** The environment child processes start from. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** This machine's fingerprint as seen from `cwd` (SPEC §3.6). */
  readonly environment: (cwd: string) => Promise<Environment>;
  /** An AbortSignal that fires on Ctrl-C or SIGTERM until `dispose` is called. */
  readonly interrupts: () => { readonly signal: AbortSignal; dispose(): void };
}

export interface CliDeps {
  readonly reader: FileReader;
  readonly writer: FileWriter;
  /** Standard output (results, JSON when no -o). */
  readonly out: (text: string) => void;
  /** Standard error (progress, warnings, the one error line). */
  readonly err: (text: string) => void;
  readonly now: () => Date;
  readonly system: SystemDeps;
}

/** Exit codes (SPEC §3.3). */
export const EXIT = Object.freeze({ pass: 0, gateFailed: 1, badInput: 2, toolFailure: 3 });
