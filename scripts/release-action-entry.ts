// Where GitHub finds the code of `uses: owner/repo/action@<ref>`: the repository at that commit,
// the folder action/, its action.yml, and `runs.main` relative to that folder. scripts/release.ts
// checks the release commit with it before tagging anything, and action/test/release.test.ts
// checks the tree the tag points at, because a release whose action.yml names a file the commit
// does not hold fails only when a user's workflow first runs it.
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/** action.yml is a few kilobytes; anything much larger is not one. */
const MAX_ACTION_YML_BYTES = 256 * 1024;

export interface ActionEntry {
  /** `runs.using`, e.g. node24. */
  readonly using: string;
  /** `runs.main` as written in action.yml. */
  readonly main: string;
  /** The file it resolves to, relative to the tree's root (POSIX separators). */
  readonly file: string;
}

/**
 * Resolves `runs.main` of `<root>/<actionDir>/action.yml` as the runner does, and throws unless it
 * names a regular file inside `root` (a symlink or a path out of the checkout would not be what
 * a pinned SHA promises).
 */
export function resolveActionEntry(root: string, actionDir: string): ActionEntry {
  const ymlPath = path.join(root, actionDir, "action.yml");
  const size = lstatSync(ymlPath).size;
  if (size > MAX_ACTION_YML_BYTES)
    throw new Error(`${ymlPath}: ${size} bytes, more than an action.yml should hold`);
  const doc = parse(readFileSync(ymlPath, "utf8")) as unknown;
  const runs = isObject(doc) ? doc["runs"] : undefined;
  const using = isObject(runs) ? runs["using"] : undefined;
  const main = isObject(runs) ? runs["main"] : undefined;
  if (typeof using !== "string" || !/^node\d+$/.test(using))
    throw new Error(`${ymlPath}: runs.using is not a Node runtime (node24): ${String(using)}`);
  if (typeof main !== "string" || main === "" || path.isAbsolute(main))
    throw new Error(`${ymlPath}: runs.main is not a relative path: ${String(main)}`);
  const realRoot = realpathSync(root);
  const resolved = path.resolve(realRoot, actionDir, main);
  const file = path.relative(realRoot, resolved);
  if (file.startsWith("..") || path.isAbsolute(file))
    throw new Error(`${ymlPath}: runs.main ${main} leaves the repository`);
  const stat = lstatSync(resolved, { throwIfNoEntry: false });
  if (stat === undefined)
    throw new Error(`${ymlPath}: runs.main ${main} names ${file}, which this tree does not hold`);
  if (!stat.isFile())
    throw new Error(`${ymlPath}: runs.main ${main} names ${file}, which is not a regular file`);
  return { using, main, file: file.split(path.sep).join("/") };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
