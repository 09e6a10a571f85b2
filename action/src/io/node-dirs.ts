// DirPort on node:fs.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DirPort } from "../ports/dirs.ts";

/** Whether a process with this id exists (EPERM: it does, but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const FRESH_LOCK_MS = 10_000;

export const nodeDirs: DirPort = {
  makeTemp: (prefix) => mkdtemp(path.join(tmpdir(), prefix)),
  ensure: async (dir) => {
    await mkdir(dir, { recursive: true });
  },
  remove: (dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  copyTree: (from, to) =>
    cp(from, to, {
      recursive: true,
      preserveTimestamps: true,
      verbatimSymlinks: true,
      errorOnExist: false,
    }),
  lock: async (file) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(file, `${process.pid}\n`, { flag: "wx" });
        return { release: () => rm(file, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) return { heldBy: `pid ${pid}` };
      // No pid yet: the holder created the file and is about to write its pid. Only an old
      // empty file is one whose writer died in between.
      const age = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0);
      if (!(pid > 0) && age < FRESH_LOCK_MS) return { heldBy: "a process that is just starting" };
      await rm(file, { force: true }); // stale: its process is gone
    }
    return { heldBy: "a process that keeps re-creating the lock" };
  },
  names: async (dir) => {
    try {
      return (await readdir(dir)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  },
};
