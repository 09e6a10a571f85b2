// Makes untrusted text safe to *display* before any syntax-specific escaping: one line, no
// invisible characters, no characters that reorder or restyle what follows (docs/threat-model.md, O1).
// Every escaper in this folder starts here, so the rules live in one place.

/** Shown in place of a character that was hostile but should stay visible (bidi controls, C0/C1 controls). */
const REPLACEMENT = "\uFFFD";

/** The default cap for one untrusted string, in code points, including the trailing ellipsis. */
const DEFAULT_MAX_LENGTH = 200;

const ELLIPSIS = "…";

// Line breaks of every kind become one space: a newline ends a table row, a list item, a paragraph.
const LINE_BREAKS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/gu;

// Bidi controls reorder what is *displayed* (Trojan Source). They are replaced by a visible
// U+FFFD rather than deleted, so a reviewer sees that the name contained something odd.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

// Remaining C0/C1 controls (ESC starts ANSI sequences, NUL truncates in some sinks, DEL).
const CONTROLS = /\p{Cc}/gu;

// Zero-width, format and other default-ignorable characters (U+200B–U+200D, U+2060–U+206F,
// U+FEFF, soft hyphen, Hangul fillers, variation selectors, tag characters, …) are invisible;
// they hide text and defeat pattern checks such as "`@` followed by a word character".
// Deleting them is what makes the later checks sound.
const FORMAT_CHARACTERS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

export interface SanitizeOptions {
  /** Cap in code points (the ellipsis included). Default 200; `Infinity` for no cap. */
  readonly maxLength?: number;
}

/**
 * One line of display-safe text: line breaks and tabs become spaces, bidi and control characters
 * become U+FFFD, format characters (zero-width and similar) are removed, lone surrogates are
 * repaired, and the result is capped at `maxLength` code points with a trailing `…`.
 * Never throws; `null`/`undefined` give the empty string.
 */
export function sanitizeText(text: unknown, options: SanitizeOptions = {}): string {
  const clean = sanitizeCharacters(toText(text).replace(LINE_BREAKS, " "));
  return capLength(clean, options.maxLength ?? DEFAULT_MAX_LENGTH);
}

/**
 * Like {@link sanitizeText} but keeps the line structure (LF; CRLF and CR become LF, tabs stay),
 * for text shown verbatim in a code block (diffs, critcmp's table). No length cap.
 */
export function sanitizeBlock(text: unknown): string {
  return toText(text)
    .replace(/\r\n?|[\v\f\u0085\u2028\u2029]/gu, "\n")
    .split("\n")
    .map((line) => sanitizeCharacters(line.replace(/\t/gu, "    ")))
    .join("\n");
}

function sanitizeCharacters(text: string): string {
  return text
    .toWellFormed()
    .replace(BIDI_CONTROLS, REPLACEMENT)
    .replace(CONTROLS, REPLACEMENT)
    .replace(FORMAT_CHARACTERS, "");
}

/** Caps `text` at `maxLength` code points (never splitting a surrogate pair), ending in `…`. */
export function capLength(text: string, maxLength: number): string {
  const limit = Number.isNaN(maxLength) ? DEFAULT_MAX_LENGTH : Math.max(1, Math.floor(maxLength));
  if (text.length <= limit) return text; // UTF-16 length ≥ code points: nothing to cut
  const points = Array.from(text);
  if (points.length <= limit) return text;
  return points.slice(0, limit - 1).join("") + ELLIPSIS;
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  // null/undefined show as nothing; anything else is a caller bug, shown as one visible mark.
  return value === null || value === undefined ? "" : REPLACEMENT;
}
