// In-process CLI dependencies for tests that call a command function directly (commands not yet
// wired into main.ts): the real file reader, writer and system, with standard output and error
// captured and the clock fixed.
import { nodeFileReader, nodeFileWriter } from "../../src/io/node-files.ts";
import { nodeSystem } from "../../src/io/node-system.ts";
import type { CliDeps } from "../../src/cli/deps.ts";

export interface CapturedDeps {
  readonly deps: CliDeps;
  readonly out: () => string;
  readonly err: () => string;
}

export function capturedDeps(options: { cwd?: string; now?: Date } = {}): CapturedDeps {
  const out: string[] = [];
  const err: string[] = [];
  const system = nodeSystem();
  const deps: CliDeps = {
    reader: nodeFileReader,
    writer: nodeFileWriter,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    now: () => options.now ?? new Date("2026-11-22T12:00:00Z"),
    system: options.cwd === undefined ? system : { ...system, cwd: options.cwd },
  };
  return { deps, out: () => out.join(""), err: () => err.join("") };
}
