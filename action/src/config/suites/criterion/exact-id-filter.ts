// Criterion's filter is a Rust regex over full ids; sequential rounds narrow a Criterion suite to
// its open benchmarks with one that matches exactly those ids and nothing else.
/**
 * Characters with a meaning in Rust's `regex` syntax: the ones `regex::escape` escapes (`#`, `&`,
 * `-` and `~` only matter in verbose mode and character classes, and escaping them has been
 * accepted by every regex 1.x that Criterion 0.3.3–0.8 can resolve to).
 */
const META = new Set("\\.+*?()|[]{}^$#&-~");
/**
 * Written as `\x{…}`: whitespace (verbose mode would drop it), control and format characters,
 * and anything unassigned or private. Old regex releases refuse `\ ` and other superfluous
 * escapes, but the hex escape has always meant the one code point; it also keeps NUL and
 * newlines out of the argv string.
 */
const AS_HEX = /[\s\p{C}\p{Z}]/u;

/** One id as a Rust regex matching exactly that text; undefined when it is not valid Unicode. */
export function escapeRustRegex(text: string): string | undefined {
  // A lone surrogate cannot be UTF-8, so Criterion (Rust strings) can never have produced it.
  if (!text.isWellFormed()) return undefined;
  let out = "";
  for (const ch of text) {
    if (META.has(ch)) out += `\\${ch}`;
    else if (AS_HEX.test(ch)) out += `\\x{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out;
}

/**
 * Linux caps one argv string at 128 KiB (MAX_ARG_STRLEN); well below that, a filter for a few
 * hundred long ids still fits. Above it the suite runs with its own filter and the runner keeps
 * only the open ids.
 */
export const MAX_FILTER_BYTES = 64 * 1024;

/**
 * Criterion's filter (a Rust regex tested against each benchmark's full id) that selects exactly
 * `ids`, or undefined when none can be written (an id that is not valid Unicode, or a filter
 * too long for one argument).
 */
export function exactIdFilter(ids: readonly string[]): string | undefined {
  if (ids.length === 0) return undefined;
  const escaped: string[] = [];
  for (const id of [...new Set(ids)].sort()) {
    const e = escapeRustRegex(id);
    if (e === undefined) return undefined;
    escaped.push(e);
  }
  const filter = `^(?:${escaped.join("|")})$`;
  return Buffer.byteLength(filter, "utf8") > MAX_FILTER_BYTES ? undefined : filter;
}
