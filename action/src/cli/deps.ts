// What the CLI needs from the world, passed in so tests run commands in-process without mocks.
import type { FileReader, FileWriter } from "../ports.ts";

export interface CliDeps {
  readonly reader: FileReader;
  readonly writer: FileWriter;
  /** Standard output (results, JSON when no -o). */
  readonly out: (text: string) => void;
  /** Standard error (progress, warnings, the one error line). */
  readonly err: (text: string) => void;
  readonly now: () => Date;
}

/** Exit codes (SPEC §3.3). */
export const EXIT = Object.freeze({ pass: 0, gateFailed: 1, badInput: 2, toolFailure: 3 });
