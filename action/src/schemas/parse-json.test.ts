import { describe, expect, it } from "vitest";
import { errorOf } from "../../test/support/input-error.ts";
import { rng } from "../../test/support/synthetic.ts";
import { parseJsonText } from "./parse-json.ts";

/** The one line the CLI prints for the InputError `text` raises. */
const problem = (text: string, limits?: { maxChars: number; maxDepth: number }): string =>
  errorOf(() => parseJsonText(text, "in.json", limits)).describe();

const KEY_PARTS = ["a", "b", "p50", "x/y", "t~", 'q"', "\\", "é", "{", "[", ",", ":", " "];

function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth > 4 || pick < 0.3) return [1.5, "s", 'v"a\\l', null, true][Math.floor(random() * 5)];
  if (pick < 0.6)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  const object: Record<string, unknown> = {};
  const size = Math.floor(random() * 16);
  for (let i = 0; i < size; i++) {
    const key = `${KEY_PARTS[Math.floor(random() * KEY_PARTS.length)]}${i % 3 === 0 ? i : ""}`;
    object[key] = randomValue(random, depth + 1);
  }
  return object;
}

describe("parseJsonText: a key given twice in one object is refused", () => {
  it("names the file and the JSON pointer of the second occurrence", () => {
    // Before, JSON.parse kept the last value: a p50 of 999 replaced the 1 written first.
    expect(problem('{"unit":"ms","operations":[{"name":"a","p50":1,"p50":999}]}')).toBe(
      'in.json: /operations/0/p50: duplicate key "p50" (an object may name each key once)',
    );
    expect(problem('{"a":1,"a":2}')).toBe(
      'in.json: /a: duplicate key "a" (an object may name each key once)',
    );
  });

  it("escapes the pointer (RFC 6901) and counts array items past nested values", () => {
    expect(problem('{"x/y":[0,[1,2],{"s":"],{"},{"~k":1,"~k":2}]}')).toBe(
      'in.json: /x~1y/3/~0k: duplicate key "~k" (an object may name each key once)',
    );
  });

  it("compares keys by value, escapes decoded", () => {
    expect(problem('{"a":1,"\\u0061":2}')).toMatch(/^in\.json: \/a: duplicate key "a"/);
    expect(problem('{"q\\"":1,"q\\u0022":2}')).toMatch(/^in\.json: \/q": duplicate key "q\\""/);
  });

  it("finds a duplicate in a large object, before and after it outgrows the short list", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(problem(`{${keys.join(",")},"k3":0}`)).toMatch(/^in\.json: \/k3: duplicate key "k3"/);
    expect(problem(`{${keys.slice(0, 5).join(",")},"k3":0,${keys.slice(5).join(",")}}`)).toMatch(
      /^in\.json: \/k3: duplicate key "k3"/,
    );
  });

  it("accepts the same key in different objects, and keys that appear as values", () => {
    const text =
      '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":"a","d":"\\"a\\":1,\\"a\\":2","e":{"b":"b"}}';
    expect(parseJsonText(text, "in.json")).toEqual(JSON.parse(text));
  });

  it("agrees with JSON.parse on generated documents, and finds every injected duplicate", () => {
    const random = rng(20240601);
    for (let n = 0; n < 300; n++) {
      const value = randomValue(random, 0);
      const text = JSON.stringify(value, null, n % 2 === 0 ? 0 : 2);
      expect(parseJsonText(text, "in.json")).toEqual(value);
      const withDuplicate = JSON.stringify({ pad: value, inner: [value, { z: value }] }).replace(
        /"z":/,
        '"z":1,"z":',
      );
      expect(problem(withDuplicate)).toMatch(/^in\.json: \/inner\/1\/z: duplicate key "z"/);
    }
  });
});

describe("parseJsonText keeps its other limits", () => {
  it("refuses __proto__ as a key anywhere, escaped or not", () => {
    expect(problem('[{"a":{"__proto__":{"x":1}}}]')).toBe(
      'in.json: /0/a/__proto__: object key "__proto__" is not allowed',
    );
    expect(problem('{"b":[1,{"\\u005f_proto__":1}]}')).toBe(
      'in.json: /b/1/__proto__: object key "__proto__" is not allowed',
    );
    expect(parseJsonText('{"name":"__proto__"}', "in.json")).toEqual({ name: "__proto__" });
  });

  it("refuses a leading byte-order mark, naming it", () => {
    expect(problem('\uFEFF{"a":1}')).toBe(
      "in.json: starts with a byte-order mark (U+FEFF); JSON must be UTF-8 without one",
    );
    expect(parseJsonText('{"a":"\uFEFF"}', "in.json")).toEqual({ a: "\uFEFF" });
  });

  it("refuses nesting deeper than the limit before JSON.parse recurses", () => {
    expect(problem(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toBe(
      "in.json: JSON is nested deeper than 64 levels",
    );
    expect(problem('{"a":[[[1]]]}', { maxChars: 100, maxDepth: 3 })).toBe(
      "in.json: JSON is nested deeper than 3 levels",
    );
    expect(parseJsonText('{"a":[[1]]}', "in.json", { maxChars: 100, maxDepth: 3 })).toEqual({
      a: [[1]],
    });
    // Brackets inside strings are text, not nesting.
    expect(parseJsonText(`["${"[".repeat(100)}"]`, "in.json")).toEqual(["[".repeat(100)]);
  });

  it("refuses too long and empty texts, and reports JSON.parse's own errors", () => {
    expect(problem("[1,2,3]", { maxChars: 5, maxDepth: 8 })).toBe(
      "in.json: file is too large (7 characters, limit 5)",
    );
    expect(problem(" \n")).toBe("in.json: file is empty");
    expect(problem('{"a":1,')).toMatch(/^in\.json: invalid JSON \(/);
    expect(problem('{"a":"unterminated')).toMatch(/^in\.json: invalid JSON \(/);
    expect(problem('{"a\\x":1}')).toMatch(/^in\.json: invalid JSON \(/);
  });
});
