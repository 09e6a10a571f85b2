// The `{target}`, `{worktree}` and `{out}` placeholders of benchgate.yml's commands (build, suite
// and golden commands), replaced per side when a command runs. Pure: text in, text out.
import type { Argv } from "./config-checks.ts";

/** The `{target}`, `{worktree}` and (custom suites) `{out}` placeholders. */
export interface Placeholders {
  readonly target: string;
  readonly worktree: string;
  readonly out?: string;
}

const PLACEHOLDER = /\{(target|worktree|out)\}/g;

/** Replaces placeholders in one argv item. Unknown `{…}` text is left alone. */
export function expand(
  text: string,
  values: Placeholders,
  quote: (s: string) => string = (s) => s,
): string {
  return text.replace(PLACEHOLDER, (whole, name: keyof Placeholders) => {
    const value = values[name];
    return value === undefined ? whole : quote(value);
  });
}

export function expandArgv(argv: Argv, values: Placeholders): Argv {
  const [program, ...rest] = argv;
  return [expand(program, values), ...rest.map((a) => expand(a, values))];
}

/** POSIX shell single-quoting, for paths put into hyperfine's shell command lines. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
