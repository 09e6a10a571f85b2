// ServicePort on Node and Linux: the service is spawned without a shell as the leader of a new
// session and process group, contained like every step (./process-containment.ts) so whatever
// leaves its group is still found, its usage is read from /proc, readiness is one `fetch` that
// follows no redirect, and a free port is one that the kernel hands out for 127.0.0.1:0.
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { describeEscapes } from "../exec/run-step.ts";
import type {
  RunningService,
  ServiceExit,
  ServiceOptions,
  ServicePort,
  ServiceStop,
  ServiceUsage,
} from "../ports/services.ts";
import { openCappedLog } from "./capped-log.ts";
import {
  escapedOf,
  pipesClosed,
  PIPE_DRAIN_MS,
  spawnBoxed,
  UNSEEN_PIPE_HOLDER,
} from "./node-process.ts";
import {
  KILL_WAIT_MS,
  systemContainment,
  type Containment,
  type StepBox,
} from "./process-containment.ts";
import { groupMembers } from "./proc-table.ts";

const OUTPUT_TAIL_BYTES = 16 * 1024;
const POLL_MS = 25;

/** VmRSS and VmHWM of one process, in bytes (the kernel writes kB). */
function memoryOf(status: string): { rss: number; hwm: number } {
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    return match === null ? 0 : Number(match[1]) * 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

async function usageOf(leader: number): Promise<ServiceUsage | undefined> {
  const members = groupMembers(leader);
  if (members.length === 0) return undefined;
  let rssBytes = 0;
  let peakRssBytes = 0;
  let openFiles = 0;
  let processes = 0;
  for (const { pid } of members) {
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
    if (groupMembers(pid).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await delay(POLL_MS);
  }
}

/**
 * The group first, gracefully (that is how a server is asked to stop); then every process of the
 * box still alive has left the group, escaped, and is killed; then the pipes, which an unseen
 * process may still hold.
 */
async function stopBoxed(
  box: StepBox,
  child: ReturnType<typeof spawnBoxed>,
  graceMs: number,
): Promise<Omit<ServiceStop, "exit">> {
  const pid = child.pid as number;
  signalGroup(pid, "SIGTERM");
  if (!(await waitForEmptyGroup(pid, graceMs))) {
    signalGroup(pid, "SIGKILL");
    await waitForEmptyGroup(pid, KILL_WAIT_MS);
  }
  const left = box.members();
  const survivors = await box.killAll();
  if (survivors.length > 0)
    throw new Error(
      `${describeEscapes(escapedOf(survivors))} survived SIGKILL for ${KILL_WAIT_MS} ms`,
    );
  const closed = await pipesClosed(child, PIPE_DRAIN_MS);
  return { escaped: [...escapedOf(left), ...(closed ? [] : [UNSEEN_PIPE_HOLDER])] };
}

async function start(
  argv: readonly string[],
  options: ServiceOptions,
  containment: () => Promise<Containment>,
): Promise<RunningService> {
  if (argv[0] === undefined) throw new Error("empty command");
  const box = await (await containment()).box(argv, options.env, options.cwd);
  const log = options.logFile === undefined ? undefined : openCappedLog(options.logFile);
  const child = spawnBoxed(box, options.cwd);
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
  const finish = async (): Promise<void> => {
    await log?.end();
    await box.release();
  };
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => {
      void box
        .killAll()
        .then(finish)
        .then(() => reject(error));
    });
  });
  let stopping: Promise<ServiceStop> | undefined;
  const stop = async (graceMs: number): Promise<ServiceStop> => {
    try {
      const { escaped } = await stopBoxed(box, child, graceMs);
      return { exit: exit ?? (await exited), escaped };
    } finally {
      await finish();
    }
  };
  return {
    pid: child.pid as number,
    exited: () => exit,
    outputTail: () => tail,
    stop: (graceMs) => (stopping ??= stop(graceMs)),
  };
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
    // Not followed: a redirect may point off the loop-back, to anything the runner can reach.
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    await response.body?.cancel();
    if (response.status >= 300 && response.status < 400) {
      const to = (response.headers.get("location") ?? "").slice(0, 200);
      return `status ${response.status}, a redirect to ${JSON.stringify(to)} (not followed)`;
    }
    return response.ok ? undefined : `status ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if ((error as Error).name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
    return cause ?? (error as Error).message;
  }
}

/** A ServicePort whose services are contained by `containment` (default: the machine's best). */
export function makeNodeServices(
  containment: () => Promise<Containment> = systemContainment,
): ServicePort {
  return {
    start: (argv, options) => start(argv, options, containment),
    freePort,
    probe,
    usage: usageOf,
    sleep: async (ms, signal) => {
      try {
        await delay(ms, undefined, signal === undefined ? {} : { signal });
      } catch {
        // Aborted: the caller checks its signal.
      }
    },
  };
}

export const nodeServices: ServicePort = makeNodeServices();
