// Node implementations of FileReader/FileWriter. Sizes are checked with lstat before any byte is
// read; symlinks are never followed (a benchmark tree is produced by untrusted code); writes go
// to a temporary file in the same directory and are renamed into place.
import { lstat, open, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { InputError } from "../errors.ts";
import type { DirEntry, FileReader, FileWriter } from "../ports/files.ts";

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function kindOfStats(stats: { isFile(): boolean; isDirectory(): boolean }): DirEntry["kind"] {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "dir";
  return "other";
}

export const nodeFileReader: FileReader = {
  async readText(file, maxBytes) {
    let stats;
    try {
      stats = await lstat(file);
    } catch (error) {
      if (isErrno(error, "ENOENT")) throw new InputError("file not found", { source: file });
      throw new InputError(`cannot read file (${(error as Error).message})`, { source: file });
    }
    if (stats.isSymbolicLink())
      throw new InputError("is a symbolic link; refusing to follow it", { source: file });
    if (!stats.isFile()) throw new InputError("not a regular file", { source: file });
    if (stats.size > maxBytes) {
      throw new InputError(`file is too large (${stats.size} bytes, limit ${maxBytes})`, {
        source: file,
      });
    }
    // Read to end of file, at most maxBytes + 1: the size from lstat is only a first check, since
    // a file can grow after it, and kernel files (/proc, /sys) report a size of 0.
    const handle = await open(file, "r");
    try {
      let buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stats.size + 1, 64 * 1024)));
      let bytesRead = 0;
      for (;;) {
        if (bytesRead === buffer.length) {
          if (buffer.length > maxBytes) break;
          const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
          buffer.copy(grown, 0, 0, bytesRead);
          buffer = grown;
        }
        const { bytesRead: n } = await handle.read(
          buffer,
          bytesRead,
          buffer.length - bytesRead,
          null,
        );
        if (n === 0) break;
        bytesRead += n;
      }
      if (bytesRead > maxBytes)
        throw new InputError(`file is too large (limit ${maxBytes} bytes)`, { source: file });
      const decoder = new TextDecoder("utf-8", { fatal: true });
      try {
        return decoder.decode(buffer.subarray(0, bytesRead));
      } catch {
        throw new InputError("file is not valid UTF-8", { source: file });
      }
    } finally {
      await handle.close();
    }
  },

  async list(dir) {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, "ENOENT")) throw new InputError("directory not found", { source: dir });
      if (isErrno(error, "ENOTDIR")) throw new InputError("not a directory", { source: dir });
      throw new InputError(`cannot list directory (${(error as Error).message})`, { source: dir });
    }
    return entries
      .map((e): DirEntry => ({ name: e.name, kind: e.isSymbolicLink() ? "other" : kindOfStats(e) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  },

  async kindOf(file) {
    try {
      const stats = await lstat(file);
      return stats.isSymbolicLink() ? "other" : kindOfStats(stats);
    } catch (error) {
      if (isErrno(error, "ENOENT") || isErrno(error, "ENOTDIR")) return undefined;
      throw error;
    }
  },
};

/** Writes to a fresh temporary file beside `file`, then renames it into place. */
async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temp, data, { flag: "wx" });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    if (isErrno(error, "ENOENT"))
      throw new InputError("output directory does not exist", { source: file });
    throw new InputError(
      `cannot write file (${(error as Error).message})`,
      { source: file },
      { cause: error },
    );
  }
}

export const nodeFileWriter: FileWriter = {
  writeText: writeAtomically,
  writeBytes: writeAtomically,
};
