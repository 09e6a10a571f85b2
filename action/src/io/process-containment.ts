// Every process a step starts, found and killed when the step ends: nothing a server, benchmark,
// build or golden command starts may outlive it, whatever it does with sessions, process groups
// and pipes (docs/run.md, "Nothing outlives a step"). The mechanism is picked once, at run time:
//
// - cgroup: where benchgate may create a cgroup v2 (root, or a delegated subtree), each step gets
//   one of its own, and the program joins it before it runs (a one-line sh prologue writes its
//   pid to cgroup.procs, then execs the program), so all it ever forks is inside; leaving takes
//   the right to write another cgroup's cgroup.procs. cgroup.kill ends them all at once.
// - proc: otherwise (a GitHub-hosted runner's unprivileged user), /proc: a token in the step's
//   environment, which every child inherits, its session and process group, and the parent links
//   seen while it runs (polled). A process that leaves the session and execs with an empty
//   environment before a poll sees it escapes this one.
//
// Both mechanisms also look for the token at the end, and neither ever touches benchgate itself
// or its ancestors.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { constants, readFileSync, writeFileSync } from "node:fs";
import { access, mkdir, readdir, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { environHas, procEntry, procTable, type ProcEntry } from "./proc-table.ts";

/** The environment variable that marks every process of a step. */
export const STEP_TOKEN_VARIABLE = "BENCHGATE_STEP_TOKEN";
/** After SIGKILL the kernel needs a moment to take the processes down; longer means something is wrong. */
export const KILL_WAIT_MS = 5000;
const KILL_POLL_MS = 25;
/** How often the proc mechanism records the step's process tree while it runs. */
const TREE_POLL_MS = 500;
/** Joins the cgroup whose cgroup.procs is $1, then becomes the program (same pid, no fork). */
const PROLOGUE = 'echo $$ > "$1" || exit 125; shift; exec "$@"';
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

type ContainmentMechanism = "cgroup" | "proc";

/** One step's processes, from before it starts until it is over. */
export interface StepBox {
  readonly mechanism: ContainmentMechanism;
  /** What to spawn instead of the step's argv (the same program, behind the cgroup prologue). */
  readonly argv: readonly string[];
  /** The step's environment with the token added. */
  readonly env: Readonly<Record<string, string>>;
  /** The spawned program: the leader of its own session and process group (spawned detached). */
  adopt(pid: number): void;
  /** The live processes of the step now (not zombies). */
  members(): ProcEntry[];
  /** Sends `signal` to every live process of the step. */
  signalAll(signal: NodeJS.Signals): void;
  /** SIGKILL until no process of the step is left; resolves to those alive after KILL_WAIT_MS. */
  killAll(): Promise<ProcEntry[]>;
  /** CPU time the step's processes used so far (the cgroup's cpu.stat); undefined without one. */
  cpuMs?(): number | undefined;
  /** Stops watching and removes the cgroup; once the step is over. */
  release(): Promise<void>;
}

export interface Containment {
  readonly mechanism: ContainmentMechanism;
  /** A box for a step about to run `argv`; rejects as spawn would when the program is missing. */
  box(
    argv: readonly string[],
    env: Readonly<Record<string, string>>,
    cwd: string,
  ): Promise<StepBox>;
}

let boxes = 0;
let cgroups = 0;
/** Boxes of steps still running, killed synchronously if benchgate exits first (a second Ctrl-C). */
const live = new Set<Tracker>();
let exitHook = false;

function killLiveOnExit(): void {
  for (const tracker of live) tracker.killNow();
}

/** benchgate and its ancestors: never a member, whatever their environment says. */
function protectedPids(byPid: ReadonlyMap<number, ProcEntry>): Set<number> {
  const mine = new Set<number>();
  for (let pid = process.pid; pid > 0 && !mine.has(pid); pid = byPid.get(pid)?.ppid ?? 0)
    mine.add(pid);
  return mine;
}

function cgroupPids(dir: string): Set<number> {
  try {
    const text = readFileSync(path.join(dir, "cgroup.procs"), "utf8");
    return new Set(text.split("\n").filter(Boolean).map(Number));
  } catch {
    return new Set(); // removed, or never created
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone since the scan.
  }
}

/** Which processes belong to one step: the rules of both mechanisms above. */
class Tracker {
  readonly #variable: string;
  readonly #cgroup: string | undefined;
  #leader: { pid: number; startTime: string } | undefined;
  /** Members seen so far, by pid → start time: a member stays one after it leaves the group. */
  readonly #known = new Map<number, string>();
  /** Processes whose environment was read and holds no token (read each process once). */
  readonly #outsiders = new Map<number, string>();

  constructor(token: string, cgroup: string | undefined) {
    this.#variable = `${STEP_TOKEN_VARIABLE}=${token}`;
    this.#cgroup = cgroup;
  }

  adopt(pid: number): void {
    const entry = procEntry(pid);
    this.#leader = { pid, startTime: entry?.startTime ?? "" };
    if (entry !== undefined) this.#known.set(pid, entry.startTime);
  }

  /** The live members now; records them (and forgets processes that are gone). */
  scan(): ProcEntry[] {
    const table = procTable();
    const byPid = new Map(table.map((p) => [p.pid, p]));
    const mine = protectedPids(byPid);
    const inCgroup = this.#cgroup === undefined ? new Set<number>() : cgroupPids(this.#cgroup);
    const members = new Map<number, ProcEntry>();
    for (const p of table)
      if (!mine.has(p.pid) && this.#isMember(p, inCgroup)) members.set(p.pid, p);
    // Children of members are members, whatever their environment (a tree seen while it runs).
    for (let grew = true; grew;) {
      grew = false;
      for (const p of table)
        if (!members.has(p.pid) && !mine.has(p.pid) && members.has(p.ppid)) {
          members.set(p.pid, p);
          grew = true;
        }
    }
    for (const map of [this.#known, this.#outsiders])
      for (const [pid, start] of map) if (byPid.get(pid)?.startTime !== start) map.delete(pid);
    for (const p of members.values()) this.#known.set(p.pid, p.startTime);
    return [...members.values()].filter((p) => p.state !== "Z");
  }

  #isMember(p: ProcEntry, inCgroup: ReadonlySet<number>): boolean {
    if (this.#known.get(p.pid) === p.startTime || inCgroup.has(p.pid)) return true;
    // A group or session id stays taken while any member lives, so only the leader's own pid
    // could have been reused by a stranger: it is checked by its start time.
    const leader = this.#leader;
    if (
      leader !== undefined &&
      (p.pgrp === leader.pid || p.session === leader.pid) &&
      (p.pid !== leader.pid || p.startTime === leader.startTime)
    )
      return true;
    if (this.#outsiders.get(p.pid) === p.startTime) return false;
    if (environHas(p.pid, this.#variable)) return true;
    this.#outsiders.set(p.pid, p.startTime);
    return false;
  }

  /** Everything at once, without waiting: for the exit hook. */
  killNow(): void {
    if (this.#cgroup !== undefined) writeCgroupKill(this.#cgroup);
    for (const p of this.scan()) kill(p.pid, "SIGKILL");
  }

  async killAll(): Promise<ProcEntry[]> {
    const deadline = performance.now() + KILL_WAIT_MS;
    for (;;) {
      this.killNow();
      await delay(KILL_POLL_MS);
      const left = this.scan();
      if (left.length === 0) return [];
      if (performance.now() >= deadline) return left;
    }
  }
}

/** cgroup.kill (Linux 5.14+) SIGKILLs every process of the cgroup; older kernels: one by one. */
function writeCgroupKill(dir: string): void {
  try {
    writeFileSync(path.join(dir, "cgroup.kill"), "1");
  } catch {
    for (const pid of cgroupPids(dir)) kill(pid, "SIGKILL");
  }
}

function makeBox(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  cgroup: string | undefined,
): StepBox {
  const token = `${process.pid}-${++boxes}-${randomBytes(12).toString("hex")}`;
  const tracker = new Tracker(token, cgroup);
  let poll: NodeJS.Timeout | undefined;
  if (!exitHook) {
    process.once("exit", killLiveOnExit);
    exitHook = true;
  }
  live.add(tracker);
  return {
    mechanism: cgroup === undefined ? "proc" : "cgroup",
    argv:
      cgroup === undefined
        ? argv
        : ["/bin/sh", "-c", PROLOGUE, "benchgate-step", path.join(cgroup, "cgroup.procs"), ...argv],
    env: { ...env, [STEP_TOKEN_VARIABLE]: token },
    adopt: (pid) => {
      tracker.adopt(pid);
      // A cgroup holds the tree by itself; /proc alone has to see it while it runs.
      if (cgroup === undefined) poll = setInterval(() => tracker.scan(), TREE_POLL_MS).unref();
    },
    members: () => tracker.scan(),
    signalAll: (signal) => {
      for (const p of tracker.scan()) kill(p.pid, signal);
    },
    killAll: () => tracker.killAll(),
    cpuMs: () => (cgroup === undefined ? undefined : cgroupCpuMs(cgroup)),
    release: async () => {
      clearInterval(poll);
      live.delete(tracker);
      if (cgroup !== undefined) await removeCgroup(cgroup);
    },
  };
}

/**
 * usage_usec of the cgroup's cpu.stat (kept by every cgroup v2, whatever controllers are
 * enabled) in milliseconds; undefined when it cannot be read.
 */
function cgroupCpuMs(dir: string): number | undefined {
  try {
    const match = /^usage_usec (\d+)$/m.exec(readFileSync(path.join(dir, "cpu.stat"), "utf8"));
    return match === null ? undefined : Number(match[1]) / 1000;
  } catch {
    return undefined;
  }
}

/** rmdir, retried while the last processes are being torn down; a leftover is only a directory. */
async function removeCgroup(dir: string): Promise<void> {
  for (let tries = 0; tries < 40; tries++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EBUSY") return;
      await delay(KILL_POLL_MS);
    }
  }
}

/** The spawn error a missing program gives, before the prologue would hide it behind sh's 127. */
async function ensureProgram(
  program: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
): Promise<void> {
  const candidates = program.includes("/")
    ? [path.resolve(cwd, program)]
    : (env["PATH"] ?? DEFAULT_PATH).split(":").map((dir) => path.resolve(cwd, dir, program));
  let found: string | undefined;
  for (const file of candidates) {
    try {
      if (!(await stat(file)).isFile()) continue;
      found = file;
      await access(file, constants.X_OK);
      return;
    } catch {
      // Not here, or not executable: look on.
    }
  }
  const code = found === undefined ? "ENOENT" : "EACCES";
  throw Object.assign(new Error(`spawn ${program} ${code}`), {
    code,
    syscall: `spawn ${program}`,
    path: program,
  });
}

/** The /proc mechanism alone: works for any user on Linux. */
export const procContainment: Containment = {
  mechanism: "proc",
  box: (argv, env) => Promise.resolve(makeBox(argv, env, undefined)),
};

/** A cgroup per step under `parent`, a cgroup v2 directory benchgate may create children in. */
function cgroupContainment(parent: string): Containment {
  return {
    mechanism: "cgroup",
    box: async (argv, env, cwd) => {
      await ensureProgram(argv[0] ?? "", env, cwd);
      const dir = path.join(parent, `benchgate-${process.pid}-${++cgroups}`);
      try {
        await mkdir(dir);
      } catch {
        return makeBox(argv, env, undefined); // out of cgroups (cgroup.max.descendants): /proc
      }
      return makeBox(argv, env, dir);
    },
  };
}

const unescapeMount = (text: string): string =>
  text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** This process's own cgroup v2 directory, found from mountinfo and checked to list us. */
export function ownCgroupDir(): string | undefined {
  let own: string | undefined;
  let mounts: string[];
  try {
    own = /^0::(\/.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
    mounts = readFileSync("/proc/self/mountinfo", "utf8").split("\n");
  } catch {
    return undefined;
  }
  if (own === undefined) return undefined;
  for (const line of mounts) {
    const [left = "", right = ""] = line.split(" - ");
    if (right.split(" ")[0] !== "cgroup2") continue;
    const fields = left.split(" ");
    const root = unescapeMount(fields[3] ?? "");
    const mountPoint = unescapeMount(fields[4] ?? "");
    if (!own.startsWith(root)) continue;
    const dir = path.join(mountPoint, path.relative(root, own));
    if (cgroupPids(dir).has(process.pid)) return dir;
  }
  return undefined;
}

/** Whether a child can join a new cgroup under `parent`: mkdir, the prologue, rmdir. */
async function canJoin(parent: string): Promise<boolean> {
  const dir = path.join(parent, `benchgate-${process.pid}-probe`);
  try {
    await mkdir(dir);
  } catch {
    return false; // not ours to write: a GitHub-hosted runner, a container without delegation
  }
  const joined = await new Promise<boolean>((resolve) => {
    const child = spawn(
      "/bin/sh",
      ["-c", PROLOGUE, "benchgate-probe", path.join(dir, "cgroup.procs"), "true"],
      { stdio: "ignore" },
    );
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
  await removeCgroup(dir);
  return joined;
}

/** Empty cgroups that runs of benchgate which are gone left behind (killed with SIGKILL). */
async function removeStale(parent: string): Promise<void> {
  for (const name of await readdir(parent).catch(() => [])) {
    const owner = /^benchgate-(\d+)-(?:\d+|probe)$/.exec(name)?.[1];
    if (owner !== undefined && procEntry(Number(owner)) === undefined)
      await rmdir(path.join(parent, name)).catch(() => undefined); // still populated: left as is
  }
}

let detected: Promise<Containment> | undefined;

/** The best mechanism this machine allows, detected once per process. */
export function systemContainment(): Promise<Containment> {
  detected ??= (async () => {
    const parent = ownCgroupDir();
    if (parent !== undefined && (await canJoin(parent))) {
      await removeStale(parent);
      return cgroupContainment(parent);
    }
    return procContainment;
  })();
  return detected;
}
