// What the schema of benchgate.yml cannot say well, shared by the run config and the suite kinds
// (./suites/): paths that stay inside the repository, argv lists whose program is not empty, and
// names unique within a list. Every error names the key, e.g. `/suites/1/name`.
import { InputError } from "../errors.ts";

/** A program and its arguments, run without a shell. */
export type Argv = readonly [string, ...string[]];

/** Paths come from a reviewed file but still must not leave the repository. */
export function checkRelativePath(raw: string, key: string, source: string): string {
  const parts = raw.split(/[/\\]/);
  if (raw.startsWith("/") || raw.startsWith("\\") || parts.includes("..") || raw.includes("\u0000"))
    throw new InputError(
      `${JSON.stringify(raw)} must be a path inside the repository (relative, no ".." component)`,
      { source, jsonPath: key },
    );
  return raw;
}

export function argv(raw: readonly string[], key: string, source: string): Argv {
  const [program, ...rest] = raw;
  if (program === undefined || program.trim() === "")
    throw new InputError("the program (first item) is empty", { source, jsonPath: key });
  return [program, ...rest];
}

export function unique(
  names: readonly string[],
  key: (i: number) => string,
  what: string,
  source: string,
): void {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const first = seen.get(name);
    if (first !== undefined)
      throw new InputError(`${what} ${JSON.stringify(name)} is also used at ${key(first)}`, {
        source,
        jsonPath: key(i),
      });
    seen.set(name, i);
  });
}
