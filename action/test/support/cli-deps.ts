// In-process CLI dependencies for tests that call a command function directly (commands not yet
// wired into main.ts): the real machine, with standard output and error
// captured and the clock fixed.
import { nodeMachine } from "../../src/io/node-machine.ts";
import type { Machine } from "../../src/ports/machine.ts";

export interface CapturedDeps {
  readonly deps: Machine;
  readonly out: () => string;
  readonly err: () => string;
}

export function capturedDeps(options: { cwd?: string; now?: Date } = {}): CapturedDeps {
  const out: string[] = [];
  const err: string[] = [];
  const machine = nodeMachine();
  const deps: Machine = {
    ...machine,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    clock: { ...machine.clock, date: () => options.now ?? new Date("2026-11-22T12:00:00Z") },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
  return { deps, out: () => out.join(""), err: () => err.join("") };
}
