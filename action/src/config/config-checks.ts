// What the schema of benchgate.yml cannot say well, shared by the run config and the suite kinds
// (./suites/): paths that stay inside the repository, argv lists whose program is not empty, and
// names unique within a list. Every error names the key, e.g. `/suites/1/name`.
import path from "node:path";
import { InputError } from "../errors.ts";
import { checkRelativePath as checkPathRule, type PathBase } from "../schemas/config-paths.ts";

/** A program and its arguments, run without a shell. */
export type Argv = readonly [string, ...string[]];

/**
 * Paths come from a reviewed file but still must not leave their base. validateConfig has applied
 * this rule (schemas/config-paths.ts) already; the resolver applies it again so that no plan can
 * be made from a config that skipped validation.
 */
export function checkRelativePath(
  raw: string,
  key: string,
  source: string,
  base: PathBase = "the repository",
): string {
  return checkPathRule(raw, { key, source }, base);
}

/**
 * `rel` joined to the folder `dir`, refused unless the result stays inside it: the last check,
 * where a path is used, in case a plan was built some other way than from a validated config.
 */
export function joinInside(dir: string, rel: string, what: string): string {
  const joined = path.join(dir, rel);
  const back = path.relative(dir, joined);
  if (back === "" || back === ".." || back.startsWith(`..${path.sep}`) || path.isAbsolute(back))
    throw new InputError(`${what} ${JSON.stringify(rel)} is not a path inside ${dir}`);
  return joined;
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

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** "90s", "10m", "1.5h", "500ms" → milliseconds. */
export function parseDuration(raw: string, key: string, source: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(raw);
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isFinite(ms) || ms < 1 || ms > 7 * 24 * 3_600_000)
    throw new InputError(
      `expected a duration such as "90s" or "10m" (up to 7 days), got ${JSON.stringify(raw)}`,
      { source, jsonPath: key },
    );
  return Math.round(ms);
}
