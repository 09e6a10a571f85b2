// For the tests of "nothing outlives a step" (docs/run.md): the fixture that escapes in each way
// a process can (action/test/fixtures/processes/escape.py), a marker to find what it left behind
// by its argv, and the two containment mechanisms to run each case under.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import {
  procContainment,
  systemContainment,
  type Containment,
} from "../../src/io/process-containment.ts";
import { ROOT } from "./cli.ts";

export const ESCAPE_SCRIPT = path.join(ROOT, "action/test/fixtures/processes/escape.py");

/** The machine's best mechanism (a cgroup, when benchgate may create one) and /proc alone. */
export const MECHANISMS: readonly [string, () => Promise<Containment>][] = [
  ["the machine's best mechanism", systemContainment],
  ["/proc alone", () => Promise.resolve(procContainment)],
];

let serial = 0;
/** A number for `sleep` that no other process on the machine runs: this process's id and a count. */
export function sleepMarker(): string {
  serial += 1;
  return `7${process.pid}${serial}`;
}

/** Live processes whose argv holds `marker` as one argument, as "pid: argv". */
export function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (args.includes(marker)) found.push(`${name}: ${args.join(" ")}`);
    } catch {
      // Gone since readdir.
    }
  }
  return found;
}

/** Kills what a failed test left behind, so that one failure does not leave sleeps around. */
export function killLeftovers(marker: string): void {
  for (const line of processesWith(marker)) {
    try {
      process.kill(Number.parseInt(line, 10), "SIGKILL");
    } catch {
      // Gone.
    }
  }
}

/**
 * Runs `body` with a fresh marker, then asserts that no process holding it is alive; whatever
 * is, is killed either way.
 */
export async function leavesNothing(body: (marker: string) => Promise<void>): Promise<void> {
  const marker = sleepMarker();
  try {
    await body(marker);
    expect(processesWith(marker), "processes left behind").toEqual([]);
  } finally {
    killLeftovers(marker);
  }
}
