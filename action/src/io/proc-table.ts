// The process table as Linux's /proc shows it: who is alive, in which process group and session,
// started when, by whom. Read synchronously on purpose: the same reads serve the exit hook of
// ./process-containment.ts, which cannot wait, and a whole scan is a few milliseconds.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** "R", "S", "Z" (a zombie: dead, not yet reaped), … */
  readonly state: string;
  /** Clock ticks since boot: with the pid, the identity of a process (pids are reused). */
  readonly startTime: string;
  /** The kernel's command name (at most 15 bytes), for messages. */
  readonly command: string;
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session … starttime …"; comm may hold ")". */
function parseStat(text: string): ProcEntry | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const pid = Number.parseInt(text, 10);
  const fields = text.slice(close + 2).split(" ");
  // Fields after comm start at the stat's third one; starttime is the 22nd.
  const [state, ppid, pgrp, session] = fields;
  const startTime = fields[19];
  if (
    !Number.isInteger(pid) ||
    state === undefined ||
    ppid === undefined ||
    pgrp === undefined ||
    session === undefined ||
    startTime === undefined
  )
    return undefined;
  return {
    pid,
    ppid: Number(ppid),
    pgrp: Number(pgrp),
    session: Number(session),
    state,
    startTime,
    command: text.slice(open + 1, close),
  };
}

/** One process's entry; undefined once it is gone. */
export function procEntry(pid: number): ProcEntry | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Every process alive now, zombies included (callers decide what a zombie means to them). */
export function procTable(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const entry = procEntry(Number(name)); // undefined: gone since readdir
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

/** Whether `pid`'s environment (as it was exec'ed) holds `variable` exactly; false if unreadable. */
export function environHas(pid: number, variable: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(variable);
  } catch {
    return false; // gone, or another user's process
  }
}

/** The live (not zombie) processes of the group that `leader` leads. */
export function groupMembers(leader: number): ProcEntry[] {
  return procTable().filter((p) => p.pgrp === leader && p.state !== "Z");
}
