// Hostile-input JSON parsing, the one parser for every JSON file benchgate reads (tool output,
// summaries, reports, histories, data.js, event payloads). Before JSON.parse allocates anything,
// one scan of the text checks the size and depth limits (a 200 MB file or a 10,000-deep nesting
// costs a scan, not the heap or the stack) and the keys of every object: a key given twice is
// refused, because JSON.parse would silently keep the last one (`"p50": 1, "p50": 999`), and so
// is `__proto__`, which no tool writes and which a later copy into a plain object would turn into
// a prototype change. Each error is one InputError naming the file (and the key's JSON pointer).
import { InputError } from "../errors.ts";
import { parseWithEscapedKeys } from "./parse-escaped-keys.ts";

interface JsonLimits {
  /** Longest accepted text, in UTF-16 code units (callers cap bytes before decoding). */
  readonly maxChars: number;
  /** Deepest accepted nesting of arrays and objects. */
  readonly maxDepth: number;
}

const DEFAULT_JSON_LIMITS: JsonLimits = Object.freeze({
  maxChars: 64 * 1024 * 1024,
  maxDepth: 64,
});

// Character codes are written as literals in the loops below, each named in a comment: V8 reads
// module-level constants from the module context on every use there, which made the scan of a
// 20 MB history a third slower.

/** A key's value: its raw text unless it has escapes (`"\u0070"` is the key "p"). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) as string;
  } catch {
    return raw; // a bad escape: JSON.parse reports it after the scan
  }
}

/** Below this many keys a linear search beats hashing, and most objects are that small. */
const LIST_LIMIT = 12;

/**
 * The keys of the objects open at each depth, as offsets into the text, compared in place: no
 * string is made for the small objects that fill a history. A big object, or one with an
 * escaped key, switches to a set of the decoded keys.
 */
class OpenObjects {
  #text = "";
  #starts = new Int32Array(256);
  #ends = new Int32Array(256);
  #top = 0;
  #base = new Int32Array(0);
  #sets: (Set<string> | undefined)[] = [];

  /**
   * Starts on a new text. One instance serves every parse (a scan is synchronous and never
   * reentrant): reading a Criterion tree parses tens of thousands of small files, and fresh
   * arrays for each were a tenth of the time, most of it the garbage collector's.
   */
  reset(text: string, maxDepth: number): this {
    this.#text = text;
    this.#top = 0;
    if (this.#base.length < maxDepth + 1) {
      this.#base = new Int32Array(maxDepth + 1);
      this.#sets = new Array<Set<string> | undefined>(maxDepth + 1).fill(undefined);
    }
    return this;
  }

  open(depth: number): void {
    this.#base[depth] = this.#top;
    this.#sets[depth] = undefined;
  }

  close(depth: number): void {
    this.#top = this.#base[depth] ?? 0;
  }

  /**
   * Records the key text[start, end) of the object at `depth` (`escaped`: it has a backslash);
   * false when the key is not allowed: already in that object, or `__proto__`.
   */
  add(depth: number, start: number, end: number, escaped: boolean): boolean {
    const text = this.#text;
    let set = this.#sets[depth];
    if (set === undefined) {
      const base = this.#base[depth] ?? 0;
      if (!escaped && this.#top - base < LIST_LIMIT) {
        if (end - start === 9 && text.startsWith("__proto__", start)) return false;
        if (this.#listed(base, start, end)) return false;
        this.#push(start, end);
        return true;
      }
      // The listed keys have no escapes: their text is their value.
      set = new Set<string>();
      for (let j = base; j < this.#top; j++)
        set.add(text.slice(this.#starts[j] ?? 0, this.#ends[j] ?? 0));
      this.#sets[depth] = set;
    }
    const key = escaped ? keyText(text, start, end) : text.slice(start, end);
    if (key === "__proto__" || set.has(key)) return false;
    set.add(key);
    return true;
  }

  #listed(base: number, start: number, end: number): boolean {
    const text = this.#text;
    const length = end - start;
    for (let j = base; j < this.#top; j++) {
      const other = this.#starts[j] ?? 0;
      if ((this.#ends[j] ?? 0) - other !== length) continue;
      let k = 0;
      while (k < length && text.charCodeAt(other + k) === text.charCodeAt(start + k)) k++;
      if (k === length) return true;
    }
    return false;
  }

  #push(start: number, end: number): void {
    if (this.#top === this.#starts.length) {
      const starts = new Int32Array(this.#top * 2);
      starts.set(this.#starts);
      this.#starts = starts;
      const ends = new Int32Array(this.#top * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#starts[this.#top] = start;
    this.#ends[this.#top] = end;
    this.#top++;
  }
}

/** The scan's working memory, kept between parses (see OpenObjects.reset). */
const scratch = { isObject: new Uint8Array(65), objects: new OpenObjects() };

/**
 * One pass over the text: throws when it nests deeper than `maxDepth`; returns the index of the
 * closing quote of the first key that repeats one of its object or is `__proto__`, else -1.
 * Malformed text is left to JSON.parse, which reports it after this scan: everything before a
 * syntax error is valid JSON, tokenized here as JSON.parse does, so the depth JSON.parse can
 * reach is always checked.
 */
function findBadKey(
  text: string,
  source: string,
  maxDepth: number,
  seen: { escapedKey: boolean },
): number {
  if (scratch.isObject.length < maxDepth + 1) scratch.isObject = new Uint8Array(maxDepth + 1);
  const isObject = scratch.isObject;
  isObject[0] = 0;
  const objects = scratch.objects.reset(text, maxDepth);
  let depth = 0;
  let inString = false;
  let inObject = false;
  let expectKey = false;
  let keyStart = -1;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) {
        escaped = true;
        i++;
      } else if (c === 0x22 /* " */) {
        inString = false;
        if (keyStart >= 0) {
          if (!objects.add(depth, keyStart, i, escaped)) return i;
          if (escaped) seen.escapedKey = true;
          keyStart = -1;
        }
      }
      continue;
    }
    if (c === 0x22 /* " */) {
      inString = true;
      escaped = false;
      if (expectKey) keyStart = i + 1;
      expectKey = false;
    } else if (c === 0x2c /* , */) expectKey = inObject;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth)
        throw new InputError(`JSON is nested deeper than ${maxDepth} levels`, { source });
      inObject = c === 0x7b;
      isObject[depth] = inObject ? 1 : 0;
      if (inObject) objects.open(depth);
      expectKey = inObject;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) {
        if (inObject) objects.close(depth);
        depth--;
      }
      inObject = isObject[depth] === 1;
      expectKey = false;
    }
  }
  return -1;
}

/** RFC 6901: `~` and `/` are escaped in a pointer's tokens. */
function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * The key whose closing quote is at `close`, and its JSON pointer: a second walk of the text up
 * to there, keeping each open container's current key or index. Only run for an error.
 */
function locateKey(text: string, close: number): { key: string; pointer: string } {
  const tokens: (string | number)[] = [];
  let key = "";
  let inString = false;
  let expectKey = false;
  let keyStart = -1;
  for (let i = 0; i <= close; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) {
        inString = false;
        if (keyStart >= 0) {
          key = keyText(text, keyStart, i);
          tokens[tokens.length - 1] = pointerToken(key);
        }
        keyStart = -1;
      }
    } else if (c === 0x22 /* " */) {
      inString = true;
      if (expectKey) keyStart = i + 1;
      expectKey = false;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      tokens.push(c === 0x7b ? "" : 0);
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      tokens.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const last = tokens[tokens.length - 1];
      if (typeof last === "number") tokens[tokens.length - 1] = last + 1;
      else expectKey = true;
    }
  }
  return { key, pointer: tokens.map((token) => `/${token}`).join("") };
}

/** The error for the bad key whose closing quote is at `close`. */
function badKeyError(text: string, close: number, source: string): InputError {
  const { key, pointer } = locateKey(text, close);
  const problem =
    key === "__proto__"
      ? 'object key "__proto__" is not allowed'
      : `duplicate key ${JSON.stringify(key)} (an object may name each key once)`;
  return new InputError(problem, { source, jsonPath: pointer });
}

/**
 * Parses untrusted JSON text; throws one InputError naming the source and the problem (with the
 * JSON pointer of a duplicate or `__proto__` key).
 */
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
  // RFC 8259 forbids a byte-order mark in JSON text; no tool benchgate reads writes one, so a
  // file that starts with it was re-encoded by something else on the way: said, not skipped.
  if (text.startsWith("\uFEFF"))
    throw new InputError("starts with a byte-order mark (U+FEFF); JSON must be UTF-8 without one", {
      source,
    });
  const seen = { escapedKey: false };
  const badKey = findBadKey(text, source, limits.maxDepth, seen);
  if (badKey !== -1) throw badKeyError(text, badKey, source);
  try {
    const value = JSON.parse(text) as unknown;
    // JSON.parse can misread escaped keys (parse-escaped-keys.ts): such text, once JSON.parse has
    // accepted it, is built again key by key.
    return seen.escapedKey ? parseWithEscapedKeys(text) : value;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputError(
      `invalid JSON (${detail.split("\n")[0] ?? "parse error"})`,
      { source },
      { cause: error },
    );
  }
}
