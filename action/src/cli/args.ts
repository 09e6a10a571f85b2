// A small, strict argument parser: `--flag value`, `--flag=value`, boolean flags, and variadic
// flags (`--base a.json b.json --head c.json`), the contract of docs/cli.md, "Arguments".
// Unknown flags are errors. Not node:util's parseArgs (and not named after it): that one has no
// variadic flags, only repeated ones (`--base a.json --base b.json`), which would break the
// documented `--base FILE...` form that users' scripts already call.
import { InputError } from "../errors.ts";

type FlagKind = "string" | "boolean" | "variadic";
export type FlagSpec = Readonly<Record<string, { kind: FlagKind; short?: string }>>;

export interface ParsedArgs {
  readonly flags: ReadonlyMap<string, string | boolean | readonly string[]>;
  readonly positionals: readonly string[];
}

export function parseFlags(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const byShort = new Map<string, string>();
  for (const [name, s] of Object.entries(spec))
    if (s.short !== undefined) byShort.set(s.short, name);
  const flags = new Map<string, string | boolean | string[]>();
  const positionals: string[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (onlyPositionals || !token.startsWith("-") || token === "-") {
      positionals.push(token);
      continue;
    }
    if (token === "--") {
      onlyPositionals = true;
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      name = eq === -1 ? token.slice(2) : token.slice(2, eq);
      inline = eq === -1 ? undefined : token.slice(eq + 1);
    } else {
      const long = byShort.get(token.slice(1));
      if (long === undefined) throw new InputError(`unknown option ${token} (see --help)`);
      name = long;
    }
    const s = spec[name];
    if (s === undefined) throw new InputError(`unknown option --${name} (see --help)`);
    if (s.kind === "boolean") {
      if (inline !== undefined) throw new InputError(`option --${name} takes no value`);
      flags.set(name, true);
    } else if (s.kind === "string") {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new InputError(`option --${name} needs a value`);
      if (flags.has(name)) throw new InputError(`option --${name} given twice`);
      flags.set(name, value);
    } else {
      const values = (flags.get(name) as string[] | undefined) ?? [];
      if (inline !== undefined) values.push(inline);
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-"))
        values.push(argv[++i] as string);
      if (values.length === 0) throw new InputError(`option --${name} needs at least one value`);
      flags.set(name, values);
    }
  }
  return { flags, positionals };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}

export function listFlag(args: ParsedArgs, name: string): readonly string[] {
  const v = args.flags.get(name);
  return Array.isArray(v) ? (v as readonly string[]) : [];
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true;
}

export function integerFlag(
  args: ParsedArgs,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = stringFlag(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InputError(
      `--${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}
