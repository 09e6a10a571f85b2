// Hostile-input JSON parsing: every size and depth limit is checked before JSON.parse allocates
// anything, so a 200 MB file or a 10,000-deep nesting costs a scan, not the heap or the stack.
import { InputError } from "../errors.ts";

export interface JsonLimits {
  /** Longest accepted text, in UTF-16 code units (callers cap bytes before decoding). */
  readonly maxChars: number;
  /** Deepest accepted nesting of arrays and objects. */
  readonly maxDepth: number;
}

export const DEFAULT_JSON_LIMITS: JsonLimits = Object.freeze({
  maxChars: 64 * 1024 * 1024,
  maxDepth: 64,
});

/** Returns the deepest nesting of `[`/`{` outside strings, stopping early once `limit` is passed. */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return deepest;
}

/** Parses untrusted JSON text; throws one InputError naming the source and the problem. */
export function parseJsonText(
  text: string,
  source: string,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
): unknown {
  if (text.length > limits.maxChars) {
    throw new InputError(
      `file is too large (${text.length} characters, limit ${limits.maxChars})`,
      { source },
    );
  }
  if (text.trim() === "") throw new InputError("file is empty", { source });
  const depth = nestingDepth(text, limits.maxDepth);
  if (depth > limits.maxDepth) {
    throw new InputError(`JSON is nested deeper than ${limits.maxDepth} levels`, { source });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputError(
      `invalid JSON (${detail.split("\n")[0] ?? "parse error"})`,
      { source },
      { cause: error },
    );
  }
}
