// DirPort on node:fs.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DirPort } from "../runner/ports.ts";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

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
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) return { heldBy: `pid ${pid}` };
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
