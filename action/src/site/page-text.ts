// Every string the history page shows is made display-safe here, with the PR comment's rule
// (render/sanitize-text.ts, docs/threat-model.md O1 and O5): bidi controls (U+202A–U+202E,
// U+2066–U+2069, U+200E/U+200F, U+061C) and other control characters become a visible U+FFFD,
// zero-width and other invisible format characters are removed, line breaks become spaces.
//
// Why here, on the finished page model, and not where the browser renders it:
// - The page shows only what benchgate-data.js holds, and buildPageModel is the one producer of
//   that data. Walking the whole model catches every string, including fields added later, and
//   every sink the browser code has or will have (textContent, document.title, <option> text,
//   tooltips, `title` attributes, uPlot's canvas labels), where a check in the renderer would
//   have to be repeated at each of them.
// - Whoever can write benchgate-data.js other than through this code can also replace the app
//   script beside it on gh-pages, so a second check in the browser would protect nothing.
// - The browser bundle cannot share the rule's code: it targets browsers older than
//   String.prototype.toWellFormed, which the rule relies on.
import { sanitizeText } from "../render/sanitize-text.ts";

/**
 * `value` with every string in it (at any depth of arrays and plain objects) passed through
 * sanitizeText, without a length cap: the history's schema already bounds its strings, and the
 * page shows them whole. Numbers, booleans and null are kept; nothing is mutated.
 */
export function displaySafe<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (typeof value === "string") return sanitizeText(value, { maxLength: Infinity });
  if (Array.isArray(value)) return value.map(walk);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
  }
  return value;
}
