// Shows untrusted multi-line text (a golden diff, critcmp's table) verbatim in a fenced code
// block. Inside a code block GitHub renders no Markdown, no HTML and no mentions, so the only
// way out is a line that closes the fence: the fence is one backtick longer than the longest
// backtick run in the text (CommonMark: a closing fence must be at least as long). HTML
// comment openers are defused (see below), so the body holds exactly one sticky marker.

import { capLength, sanitizeBlock } from "./sanitize-text.ts";

interface CodeBlockOptions {
  /** Info string, ours only (e.g. `diff`, `text`): it is not escaped. */
  readonly language?: string;
  /** Keep at most this many lines. Default 200. */
  readonly maxLines?: number;
  /** Keep at most this many characters of text (whole lines). Default 20,000. */
  readonly maxChars?: number;
  /** Cap each line at this many code points. Default 400. */
  readonly maxLineLength?: number;
}

/** The fenced block and how many lines were left out. */
interface CodeBlock {
  readonly markdown: string;
  readonly omittedLines: number;
}

/** A fenced code block of `text` that no content can close early. Never throws. */
export function codeBlock(text: unknown, options: CodeBlockOptions = {}): CodeBlock {
  const maxLines = options.maxLines ?? 200;
  const maxChars = options.maxChars ?? 20_000;
  const maxLineLength = options.maxLineLength ?? 400;
  // "<!--" is the one sequence that means something *outside* Markdown: the sticky-comment
  // lookup searches the raw body for our marker, so no copy of it may hide in a code block.
  const lines = sanitizeBlock(text).replace(/\n+$/u, "").replaceAll("<!--", "<!- -").split("\n");
  const kept: string[] = [];
  let size = 0;
  for (const raw of lines) {
    const line = capLength(raw, maxLineLength);
    if (kept.length >= maxLines || size + line.length + 1 > maxChars) break;
    kept.push(line);
    size += line.length + 1;
  }
  const body = kept.join("\n");
  let longestRun = 0;
  for (const m of body.matchAll(/`+/gu)) longestRun = Math.max(longestRun, m[0].length);
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return {
    markdown: `${fence}${options.language ?? ""}\n${body}\n${fence}`,
    omittedLines: lines.length - kept.length,
  };
}
