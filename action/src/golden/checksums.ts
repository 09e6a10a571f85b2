// The `sha256sum` format of `checksums.sha256` (docs/budgets-and-golden.md): one `<64 hex>  <name>` line per
// golden output; `<64 hex> *<name>` (sha256sum's binary marker) is accepted and written back
// in text form. Strict: every error carries the file name and line number. Names are
// identifiers, never paths, so they are restricted to a safe charset.
import { InputError } from "../errors.ts";

export interface ChecksumEntry {
  readonly name: string;
  /** 64 lower-case hex digits. */
  readonly sha256: string;
  /** 1-based line in the file it was read from (0 when built in memory). */
  readonly line: number;
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9._+@=,-]*$/;
const MAX_NAME = 128;
const MAX_LINES = 10_000;

/** Why a golden name is unsafe, or undefined when it is fine. */
export function goldenNameProblem(name: string): string | undefined {
  if (name.length === 0) return "the name is empty";
  if (name.length > MAX_NAME) return `the name is longer than ${MAX_NAME} characters`;
  if (name.includes("/") || name.includes("\\")) return "the name contains a path separator";
  if (name.includes("..")) return 'the name contains ".."';
  if (!NAME.test(name))
    return `the name ${JSON.stringify(name)} has characters outside A-Z a-z 0-9 . _ + @ = , - (or starts with one of . + @ = , -)`;
  return undefined;
}

/** Parses a `checksums.sha256` file. Blank lines are skipped; CRLF line ends are tolerated. */
export function parseChecksums(text: string, source = "checksums.sha256"): ChecksumEntry[] {
  const lines = text.split("\n");
  if (lines.length > MAX_LINES + 1)
    throw new InputError(`more than ${MAX_LINES} lines`, { source });
  const entries: ChecksumEntry[] = [];
  const seen = new Map<string, number>();
  lines.forEach((rawLine, i) => {
    const lineNo = i + 1;
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === "") return;
    const fail = (problem: string): never => {
      throw new InputError(`line ${lineNo}: ${problem}`, { source });
    };
    if (/^SHA256 \(/.test(line))
      fail("BSD-style `SHA256 (name) = hash` line: use `sha256sum` format `<hash>  <name>`");
    if (line.startsWith("\\"))
      fail("escaped name (backslash): golden names cannot contain backslashes or newlines");
    const match = /^([0-9A-Fa-f]{64}) ([ *])(.*)$/.exec(line);
    if (match === null) {
      const hash = /^\S*/.exec(line)?.[0] ?? "";
      if (!/^[0-9A-Fa-f]+$/.test(hash) || hash.length !== 64)
        fail(`expected 64 hex digits of SHA-256 first, got ${JSON.stringify(hash.slice(0, 80))}`);
      fail("expected two spaces (or a space and `*`) between the hash and the name");
    }
    const sha256 = (match?.[1] ?? "").toLowerCase();
    const name = match?.[3] ?? "";
    const problem = goldenNameProblem(name);
    if (problem !== undefined) fail(problem);
    const previous = seen.get(name);
    if (previous !== undefined) fail(`${JSON.stringify(name)} already listed on line ${previous}`);
    seen.set(name, lineNo);
    entries.push({ name, sha256, line: lineNo });
  });
  return entries;
}

/** Writes `sha256sum` text format, sorted by name, LF line ends, a final newline. */
export function formatChecksums(entries: readonly { name: string; sha256: string }[]): string {
  const seen = new Set<string>();
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let out = "";
  for (const { name, sha256 } of sorted) {
    const problem = goldenNameProblem(name);
    if (problem !== undefined)
      throw new InputError(`golden output ${JSON.stringify(name)}: ${problem}`);
    if (!/^[0-9a-f]{64}$/.test(sha256))
      throw new InputError(
        `golden output ${JSON.stringify(name)}: not a lower-case SHA-256 hex digest`,
      );
    if (seen.has(name)) throw new InputError(`golden output ${JSON.stringify(name)} listed twice`);
    seen.add(name);
    out += `${sha256}  ${name}\n`;
  }
  return out;
}
