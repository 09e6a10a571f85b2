// Its own file, so that it runs first in a fresh worker: the V8 bug it guards against depends on
// what earlier JSON.parse calls left in V8's key cache (parse-escaped-keys.ts).
import { describe, expect, it } from "vitest";
import { parseJsonText } from "./parse-json.ts";

describe("parseJsonText and V8's key cache", () => {
  it('reads the key "\\"" as a quote right after a document with the key "\\\\"', () => {
    // On Node 24.21 (V8 13.6), JSON.parse alone returns ["h", "\\"] for the second document
    // here, in a fresh vitest worker as in plain node (checked while writing this test).
    parseJsonText(String.raw`{"h":[],"\\":0}`, "poison.json");
    expect(Object.keys(parseJsonText(String.raw`{"h":1,"\"":2}`, "read.json") as object)).toEqual([
      "h",
      '"',
    ]);
  });

  it("keeps both keys apart however often they alternate", () => {
    const backslash = String.raw`{"\\":1}`;
    const quote = String.raw`{"\"":1}`;
    for (let i = 0; i < 1000; i++) {
      expect(Object.keys(parseJsonText(backslash, "a.json") as object)).toEqual(["\\"]);
      expect(Object.keys(parseJsonText(quote, "b.json") as object)).toEqual(['"']);
    }
    expect(parseJsonText(String.raw`{"h":1,"\"":2,"\n":3,"\u0070":4}`, "c.json")).toEqual({
      h: 1,
      '"': 2,
      "\n": 3,
      p: 4,
    });
  });
});
