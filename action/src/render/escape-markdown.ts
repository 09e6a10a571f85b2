// Makes an untrusted string (benchmark id, branch name, reason, tool message) inert in GitHub
// Markdown, in a table cell and in inline text (list items, paragraphs, <summary>).
//
// Decisions (docs/threat-model.md, O2):
// - Markdown and HTML syntax characters become *numeric entities*, not backslash escapes:
//   entities are literal text both in Markdown and inside HTML blocks (where a backslash would
//   show), and they contain no `|`, so a cell can never be split.
// - GitHub finds @mentions, #123/GH-123 references and bare URLs *after* rendering, on the
//   HTML text, so neither `\@` nor `&#64;` stops them (github/markup#1168, cmark-gfm#181).
//   We split the text with an empty HTML comment (`@<!-- -->user`): GitHub drops the comment,
//   the reader sees `@user`, copying the name gives back the original, and no invisible
//   character is introduced (the zero-width-space trick leaves U+200B in copied names).
//   Bots with large audiences use the same split (llvmbot: `@<!-- -->llvm.foo`). The same
//   split defuses `:emoji:` shortcodes (a name like `:white_check_mark: pass` fakes a verdict).
// - The text first passes sanitizeText (one line, no bidi/zero-width/control characters,
//   capped), so these checks cannot be defeated by invisible characters in between.

import { sanitizeText, type SanitizeOptions } from "./sanitize-text.ts";

/** An empty HTML comment: invisible after rendering, breaks mention/reference/autolink detection. */
export const SPLIT = "<!-- -->";

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "|": "&#124;",
  "`": "&#96;",
  "\\": "&#92;",
  "*": "&#42;",
  "~": "&#126;",
  "[": "&#91;",
  "]": "&#93;",
  "(": "&#40;",
  ")": "&#41;",
  "!": "&#33;",
  $: "&#36;", // GitHub renders $…$ as math
  '"': "&quot;",
};

// Characters that only matter at the start of a block (list item): `- x`, `+ x`, `= x`, indentation.
const BLOCK_START = new Set(["-", "+", "=", " "]);

/**
 * Escapes untrusted text for a GitHub Markdown table cell or inline text. The result is one line,
 * at most `maxLength` (default 200) visible characters, renders as the original text (minus
 * invisible and control characters), and contains no raw `|`, backtick, newline, `<` (other than
 * the {@link SPLIT} comment) or `@` followed by a word character. Never throws.
 */
export function escapeMarkdown(text: unknown, options: SanitizeOptions = {}): string {
  const points = Array.from(sanitizeText(text, options));
  let out = "";
  let inertUnderscores = false; // decided once per run of "_", so long runs stay linear
  for (let i = 0; i < points.length; i++) {
    const ch = points[i] as string;
    const next = points[i + 1] ?? "";
    if (i === 0 && BLOCK_START.has(ch)) {
      out += `&#${ch.codePointAt(0) ?? 32};`;
    } else if (ch === "@") {
      out += "@" + SPLIT; // @user, @org/team, owner/repo@sha, user@example.com
    } else if (ch === "#") {
      out += "&#35;" + (isDigit(next) ? SPLIT : ""); // #123, owner/repo#123
    } else if (ch === "." && isOrderedListMarker(points, i)) {
      out += "&#46;"; // "1. x" at the start would open an ordered list inside a list item
    } else if (ch === ":" && next === "/" && points[i + 2] === "/") {
      out += SPLIT + ":"; // https://… autolinks (issue URLs create backlinks)
    } else if (ch === ":" && EMOJI_NAME.test(next) && points.indexOf(":", i + 1) > 0) {
      out += ":" + SPLIT; // :white_check_mark: would fake a verdict
    } else if (
      ch === "-" &&
      isDigit(next) &&
      i >= 2 &&
      /^gh$/iu.test(points.slice(i - 2, i).join(""))
    ) {
      out += SPLIT + "-"; // GH-123
    } else if (ch === "_") {
      if (points[i - 1] !== "_") inertUnderscores = isIntraword(points, i);
      // snake_case stays readable: an underscore run inside a word never emphasizes.
      out += inertUnderscores ? ch : "&#95;";
    } else if ((ch === "w" || ch === "W") && next === "." && isWww(points, i)) {
      out += ch + SPLIT; // www.example.com autolinks
    } else {
      out += ENTITIES[ch] ?? ch;
    }
  }
  return out;
}

function isDigit(ch: string): boolean {
  return ch >= "0" && ch <= "9";
}

// "1. x" opens a list only when the dot is followed by a space or ends the line; "1.23" does not.
function isOrderedListMarker(points: readonly string[], dot: number): boolean {
  if (dot === 0 || dot > 9) return false;
  const after = points[dot + 1];
  return (after === undefined || after === " ") && points.slice(0, dot).every(isDigit);
}

// CommonMark: a run of "_" with a letter or digit on both sides can neither open nor close
// emphasis. `start` is the first underscore of the run.
function isIntraword(points: readonly string[], start: number): boolean {
  let end = start;
  while (points[end + 1] === "_") end++;
  return WORD.test(points[start - 1] ?? "") && WORD.test(points[end + 1] ?? "");
}

const WORD = /^[\p{L}\p{N}]$/u;
const EMOJI_NAME = /^[A-Za-z0-9_+-]$/u;

function isWww(points: readonly string[], lastW: number): boolean {
  return (
    lastW >= 2 &&
    points
      .slice(lastW - 2, lastW + 1)
      .join("")
      .toLowerCase() === "www"
  );
}
