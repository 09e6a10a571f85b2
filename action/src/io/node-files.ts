// Node implementations of FileReader/FileWriter. Sizes are checked with lstat before any byte is
// read; symlinks are never followed (a benchmark tree is produced by untrusted code); writes go
// to a temporary file in the same directory and are renamed into place, and only over nothing or
// a regular file. Every failure names the path.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  type Stats,
} from "node:fs";
import { lstat, rename, rm, writeFile } from "node:fs/promises";
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

/** O_NOFOLLOW: a symlink swapped in after the lstat fails to open; O_NONBLOCK: so does a FIFO's wait. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * One buffer for every read up to this size, kept between reads (the text is decoded out of it
 * before the next read can start): a fresh buffer per small file was a garbage collector's
 * worth of the time on a Criterion tree. Larger files get their own, grown by doubling.
 */
const SHARED_BYTES = 1024 * 1024;
let shared = Buffer.allocUnsafe(64 * 1024);

function bufferFor(bytes: number): Buffer {
  if (bytes > SHARED_BYTES) return Buffer.allocUnsafe(bytes);
  if (shared.length < bytes) shared = Buffer.allocUnsafe(Math.max(bytes, shared.length * 2));
  return shared;
}

// Synchronous calls inside the async port on purpose: reading a Criterion tree is tens of
// thousands of small files, and a promise per lstat, open, read and close cost several times the
// reads themselves (docs/PERFORMANCE.md §2). Nothing else waits on the event loop meanwhile.
function readTextSync(file: string, maxBytes: number): string {
  let stats: Stats;
  try {
    stats = lstatSync(file);
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
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    if (isErrno(error, "ELOOP"))
      throw new InputError("is a symbolic link; refusing to follow it", { source: file });
    throw new InputError(`cannot read file (${(error as Error).message})`, { source: file });
  }
  try {
    // What was opened, not what lstat saw a moment before, must be a regular file.
    if (!fstatSync(fd).isFile()) throw new InputError("not a regular file", { source: file });
    // Read to end of file, at most maxBytes + 1: the size from lstat is only a first check, since
    // a file can grow after it, and kernel files (/proc, /sys) report a size of 0.
    const cap = maxBytes + 1;
    let buffer = bufferFor(Math.min(cap, Math.max(stats.size + 1, 4096)));
    let bytesRead = 0;
    for (;;) {
      const room = Math.min(buffer.length, cap);
      if (bytesRead === room) {
        if (room === cap) break;
        const grown = Buffer.allocUnsafe(Math.min(cap, buffer.length * 2));
        buffer.copy(grown, 0, 0, bytesRead);
        buffer = grown;
        continue;
      }
      const asked = room - bytesRead;
      const n = readSync(fd, buffer, bytesRead, asked, null);
      bytesRead += n;
      if (n === 0) break;
      // A file on disk returns less than asked only at its end, which its size says: no second
      // read just to see 0. Kernel files (size 0) may return less mid-file: they read to the 0.
      if (n < asked && stats.size > 0 && bytesRead >= stats.size) break;
    }
    if (bytesRead > maxBytes)
      throw new InputError(`file is too large (limit ${maxBytes} bytes)`, { source: file });
    // ignoreBOM keeps a leading byte-order mark in the text, so each format decides: JSON
    // refuses it (schemas/parse-json.ts), YAML allows it.
    try {
      return UTF8.decode(buffer.subarray(0, bytesRead));
    } catch {
      throw new InputError("file is not valid UTF-8", { source: file });
    }
  } finally {
    closeSync(fd);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function listSync(dir: string): DirEntry[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (isErrno(error, "ENOENT")) throw new InputError("directory not found", { source: dir });
    if (isErrno(error, "ENOTDIR")) throw new InputError("not a directory", { source: dir });
    throw new InputError(`cannot list directory (${(error as Error).message})`, { source: dir });
  }
  return entries
    .map((e): DirEntry => ({ name: e.name, kind: e.isSymbolicLink() ? "other" : kindOfStats(e) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function kindOfSync(file: string): DirEntry["kind"] | undefined {
  try {
    const stats = lstatSync(file);
    return stats.isSymbolicLink() ? "other" : kindOfStats(stats);
  } catch (error) {
    if (isErrno(error, "ENOENT") || isErrno(error, "ENOTDIR")) return undefined;
    throw fsError(file, error);
  }
}

/** A synchronous call as the port's promise: its throw becomes the rejection. */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

export const nodeFileReader: FileReader = {
  readText: (file, maxBytes) => settled(() => readTextSync(file, maxBytes)),
  list: (dir) => settled(() => listSync(dir)),
  kindOf: (file) => settled(() => kindOfSync(file)),
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
