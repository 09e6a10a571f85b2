import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWithEscapedKeys } from "./parse-escaped-keys.ts";

// Keys and strings made of the characters that need escapes, and the escapes' own letters.
const tricky = fc.string({
  unit: fc.constantFrom('"', "\\", "\n", "\r", "\t", "\f", "\b", "/", "n", "u", "x", "é", "\u2028"),
});
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
    tricky,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(tricky, tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("parseWithEscapedKeys", () => {
  it("property: reads back what JSON.stringify wrote, compact and indented", () => {
    fc.assert(
      fc.property(json, (v) => {
        for (const text of [JSON.stringify(v), JSON.stringify(v, null, 2)])
          expect(parseWithEscapedKeys(text)).toEqual(v);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads empty containers, literals, numbers and strings at the top level", () => {
    for (const text of ["{}", "[ ]", " {\n} ", "null", "true", "-1.5e3", '"\\u0041"', "[[], {}]"])
      expect(parseWithEscapedKeys(text)).toEqual(JSON.parse(text));
  });
});
