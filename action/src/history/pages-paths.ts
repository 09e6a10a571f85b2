// Paths on the gh-pages branch. The directory comes from a flag and the extra files from code
// (the data.js exporter, the page builder); both become git index paths, so both are held to
// a plain charset with no part starting with a dot (so no `..`, no `.git`) and no absolute paths, and an extra file may not
// replace history.json. Benchmark names are attacker-influenced text: they must never become
// paths (the page reads them from the JSON instead). Pure.
import { InputError } from "../errors.ts";

/** Extra files for the pages directory, by path relative to it. */
export type PagesFiles = ReadonlyMap<string, string | Uint8Array>;

/** The history's file name in the pages directory. */
export const HISTORY_FILE = "history.json";

const MAX_EXTRA_FILES = 256;
/** Per file; the page and data.js of a long history are a few MiB. */
export const MAX_EXTRA_FILE_BYTES = 64 * 1024 * 1024;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** Why `rel` is not an acceptable relative path, or undefined when it is. */
export function relativePathProblem(rel: string): string | undefined {
  if (rel === "") return "is empty";
  if (rel.length > 512) return "is longer than 512 characters";
  if (rel.startsWith("/") || rel.includes("\\")) return "must be relative, with / between parts";
  for (const part of rel.split("/")) {
    if (part === "." || part === "..") return `has a ${JSON.stringify(part)} part`;
    if (!SEGMENT.test(part))
      return `has the part ${JSON.stringify(part.slice(0, 40))}: use letters, digits, ".", "_" and "-", not starting with "."`;
  }
  return undefined;
}

/** The directory on the branch: a relative path, or "." for the branch's root. */
export function checkPagesDir(dir: string): void {
  if (dir === ".") return;
  const problem = relativePathProblem(dir);
  if (problem !== undefined)
    throw new InputError(`--dir ${JSON.stringify(dir.slice(0, 80))} ${problem}`);
}

/** `rel` inside `dir` as a git index path. */
export function pagesPath(dir: string, rel: string): string {
  return dir === "." ? rel : `${dir}/${rel}`;
}

/** The extra files, checked: count, size, and paths that stay inside the directory. */
export function checkExtraFiles(files: PagesFiles): PagesFiles {
  if (files.size > MAX_EXTRA_FILES)
    throw new InputError(
      `${files.size} extra files for the pages directory (limit ${MAX_EXTRA_FILES})`,
    );
  for (const [rel, data] of files) {
    const problem = relativePathProblem(rel);
    if (problem !== undefined)
      throw new InputError(`extra file path ${JSON.stringify(rel.slice(0, 80))} ${problem}`);
    if (rel === HISTORY_FILE) throw new InputError("an extra file may not replace history.json");
    const bytes = typeof data === "string" ? new TextEncoder().encode(data).length : data.length;
    if (bytes > MAX_EXTRA_FILE_BYTES)
      throw new InputError(`extra file ${rel} has ${bytes} bytes (limit ${MAX_EXTRA_FILE_BYTES})`);
  }
  return files;
}
