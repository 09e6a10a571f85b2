// JSON whose object keys have escapes, parsed without JSON.parse building the objects. V8's
// JSON.parse (Node 24 and 26 at least) can decode an escaped key wrongly once an earlier parse in
// the same process has put a similar key in its cache: after `{"\\": 0}`, the key `"\""` may
// come back as `\` (nodejs/node issue 63785, V8 issue 521080746). A benchmark id or a history key
// chosen by a pull request could then be read as another one. JSON.parse stays the parser of
// every string and number here, each given alone (a top-level string goes through no key cache),
// and the objects are built by this walk. Only for text that JSON.parse has already accepted and
// whose depth and keys parse-json.ts has checked: it trusts the syntax. Pure.

/** Whitespace JSON allows between tokens: space, tab, LF, CR. */
function skipSpace(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return j;
    j++;
  }
}

/** The end (after the closing quote) of the string literal that starts at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 0x5c /* \ */) j += 2;
    else if (c === 0x22 /* " */) return j + 1;
    else j++;
  }
}

/** The end of the number or literal (true, false, null) that starts at `i`. */
function atomEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    // Ends at , ] } whitespace or the end of the text.
    if (Number.isNaN(c) || c === 0x2c || c === 0x5d || c === 0x7d) return j;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return j;
    j++;
  }
}

/**
 * Parses `text`, already valid JSON with no duplicate or `__proto__` key; the same value as a
 * correct JSON.parse. Recursion is bounded by the depth limit parse-json.ts enforced.
 */
export function parseWithEscapedKeys(text: string): unknown {
  let i = 0;
  const value = (): unknown => {
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      const object: Record<string, unknown> = {};
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === 0x7d /* } */) {
        i++;
        return object;
      }
      for (;;) {
        i = skipSpace(text, i);
        const end = stringEnd(text, i);
        const key = JSON.parse(text.slice(i, end)) as string;
        i = skipSpace(text, end) + 1; // the colon
        object[key] = value();
        i = skipSpace(text, i);
        if (text.charCodeAt(i++) === 0x7d /* } */) return object;
      }
    }
    if (c === 0x5b /* [ */) {
      const array: unknown[] = [];
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === 0x5d /* ] */) {
        i++;
        return array;
      }
      for (;;) {
        array.push(value());
        i = skipSpace(text, i);
        if (text.charCodeAt(i++) === 0x5d /* ] */) return array;
      }
    }
    const end = c === 0x22 /* " */ ? stringEnd(text, i) : atomEnd(text, i);
    const atom = JSON.parse(text.slice(i, end)) as unknown;
    i = end;
    return atom;
  };
  return value();
}
