// ServicePort on Node and Linux: the service is spawned without a shell as the leader of a new
// process group, its usage is read from /proc, readiness is one `fetch`, and a free port is one
// that the kernel hands out for 127.0.0.1:0.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import type {
  RunningService,
  ServiceExit,
  ServiceOptions,
  ServicePort,
  ServiceUsage,
} from "../ports/services.ts";

const OUTPUT_TAIL_BYTES = 16 * 1024;
/** After SIGKILL the kernel needs a moment to take the group down; longer means something is wrong. */
const KILL_WAIT_MS = 5000;
const POLL_MS = 25;

interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly pgrp: number;
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses. */
function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  const [state, , pgrp] = text.slice(close + 2).split(" ");
  if (state === undefined || pgrp === undefined || !Number.isInteger(pid)) return undefined;
  return { pid, state, pgrp: Number(pgrp) };
}

/** The live (not zombie) processes of the group that `leader` leads. */
async function groupMembers(leader: number): Promise<number[]> {
  const members: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = await readFile(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone since readdir
    }
    const stat = parseStat(text);
    if (stat !== undefined && stat.pgrp === leader && stat.state !== "Z") members.push(stat.pid);
  }
  return members;
}

/** VmRSS and VmHWM of one process, in bytes (the kernel writes kB). */
function memoryOf(status: string): { rss: number; hwm: number } {
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    return match === null ? 0 : Number(match[1]) * 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

async function usageOf(leader: number): Promise<ServiceUsage | undefined> {
  const members = await groupMembers(leader);
  if (members.length === 0) return undefined;
  let rssBytes = 0;
  let peakRssBytes = 0;
  let openFiles = 0;
  let processes = 0;
  for (const pid of members) {
    try {
      const memory = memoryOf(await readFile(`/proc/${pid}/status`, "utf8"));
      const fds = await readdir(`/proc/${pid}/fd`);
      rssBytes += memory.rss;
      peakRssBytes += memory.hwm;
      openFiles += fds.length;
      processes += 1;
    } catch {
      // Exited between the scan and the read: it holds nothing any more.
    }
  }
  return processes === 0 ? undefined : { rssBytes, peakRssBytes, openFiles, processes };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

async function waitForEmptyGroup(pid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if ((await groupMembers(pid)).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await delay(POLL_MS);
  }
}

function start(argv: readonly string[], options: ServiceOptions): Promise<RunningService> {
  const [program, ...args] = argv;
  if (program === undefined) return Promise.reject(new Error("empty command"));
  return new Promise((resolve, reject) => {
    const log =
      options.logFile === undefined
        ? undefined
        : createWriteStream(options.logFile, { flags: "a" });
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let tail = "";
    let exit: ServiceExit | undefined;
    const exited = new Promise<ServiceExit>((done) => {
      child.on("exit", (exitCode, signal) => {
        exit = { exitCode, signal };
        done(exit);
      });
    });
    const keep = (chunk: Buffer): void => {
      log?.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", () => log?.end());
    child.on("error", (error) => {
      log?.end();
      reject(error);
    });
    child.on("spawn", () => {
      const pid = child.pid as number;
      let stopping: Promise<ServiceExit> | undefined;
      const stop = async (graceMs: number): Promise<ServiceExit> => {
        signalGroup(pid, "SIGTERM");
        if (!(await waitForEmptyGroup(pid, graceMs))) {
          signalGroup(pid, "SIGKILL");
          if (!(await waitForEmptyGroup(pid, KILL_WAIT_MS)))
            throw new Error(`process group ${pid} survived SIGKILL for ${KILL_WAIT_MS} ms`);
        }
        return exit ?? (await exited);
      };
      resolve({
        pid,
        exited: () => exit,
        outputTail: () => tail,
        stop: (graceMs) => (stopping ??= stop(graceMs)),
      });
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === "object") resolve(address.port);
        else reject(new Error("the kernel gave no port"));
      });
    });
  });
}

async function probe(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? undefined : `status ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if ((error as Error).name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
    return cause ?? (error as Error).message;
  }
}

export const nodeServices: ServicePort = {
  start,
  freePort,
  probe,
  usage: usageOf,
  survivors: async (pid) => (await groupMembers(pid)).length,
  sleep: async (ms, signal) => {
    try {
      await delay(ms, undefined, signal === undefined ? {} : { signal });
    } catch {
      // Aborted: the caller checks its signal.
    }
  },
};
