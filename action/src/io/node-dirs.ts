// DirPort on node:fs. A failure names its path (io/fs-errors.ts): `--out` under a regular file
// or on one is an input error, not an internal one.
import {
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DirPort } from "../ports/dirs.ts";
import { fsError } from "./fs-errors.ts";

// mkdir -p fails with EEXIST only when the path (or a part of it) is something else than a
// directory.
const ENSURE_PROBLEMS = { EEXIST: "exists and is not a directory" };

/** `action()`, with a file-system error turned into one naming `file`. */
async function naming<T>(
  file: string,
  action: () => Promise<T>,
  problems?: Readonly<Record<string, string>>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw fsError(file, error, problems);
  }
}

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
    await naming(dir, () => mkdir(dir, { recursive: true }), ENSURE_PROBLEMS);
  },
  remove: (dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  copyFile: (from, to) => naming(to, () => copyFile(from, to)),
  copyTree: (from, to) =>
    naming(to, () =>
      cp(from, to, {
        recursive: true,
        preserveTimestamps: true,
        verbatimSymlinks: true,
        errorOnExist: false,
      }),
    ),
  lock: async (file) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(file, `${process.pid}\n`, { flag: "wx" });
        return { release: () => rm(file, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw fsError(file, error);
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
      throw fsError(dir, error);
    }
  },
};
