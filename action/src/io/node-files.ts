// Node implementations of FileReader/FileWriter. Sizes are checked with lstat before any byte is
// read; symlinks are never followed (a benchmark tree is produced by untrusted code); writes go
// to a temporary file in the same directory and are renamed into place, and only over nothing or
// a regular file. Every failure names the path.
import type { Stats } from "node:fs";
import { lstat, open, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { InputError } from "../errors.ts";
import { fsError } from "./fs-errors.ts";
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
      // ignoreBOM keeps a leading byte-order mark in the text, so each format decides: JSON
      // refuses it (schemas/parse-json.ts), YAML allows it.
      const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
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
      throw fsError(file, error);
    }
  },
};

/** What a non-regular file is, in an error message. */
function describeKind(stats: Stats): string {
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

/**
 * An output path must be absent or a regular file (docs/cli.md, "Outputs"): the rename below
 * would replace whatever is there, so a FIFO, a device (`-o /dev/null` as root), a socket or a
 * directory is refused, and so is a symbolic link, which is neither followed nor replaced.
 */
async function checkOutputPath(file: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(file);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return; // absent; a missing directory is reported on writing
    throw fsError(file, error);
  }
  if (stats.isFile()) return;
  const kind = describeKind(stats);
  throw new InputError(
    stats.isSymbolicLink()
      ? `is ${kind}; outputs are never written through or over a symbolic link`
      : `is ${kind}, not a regular file; outputs are written only to regular files`,
    { source: file },
  );
}

const WRITE_PROBLEMS = {
  ENOENT: "output directory does not exist",
  EISDIR: "is a directory, not a regular file; outputs are written only to regular files",
};

/** Writes to a fresh temporary file beside `file`, then renames it into place. */
async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  await checkOutputPath(file);
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temp, data, { flag: "wx" });
    // Again just before the rename, so the window in which something else can appear is short.
    await checkOutputPath(file);
    await rename(temp, file);
  } catch (error) {
    // Never let the clean-up hide the real error (under a regular file it fails with ENOTDIR).
    await rm(temp, { force: true }).catch(() => undefined);
    throw fsError(file, error, WRITE_PROBLEMS);
  }
}

export const nodeFileWriter: FileWriter = {
  writeText: writeAtomically,
  writeBytes: writeAtomically,
};
