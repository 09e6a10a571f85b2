import { describe, expect, it } from "vitest";
import { parseBy, parseClaim, parseClaims } from "./parse-claim.ts";
import { errorOf } from "../../test/support/input-error.ts";

describe("parseBy", () => {
  it.each([
    ["≥ 5x", 5],
    [">= 5x", 5],
    ["≥5x", 5],
    [">=5 X", 5],
    ["≥ 2.5×", 2.5],
    ["≥ 1x", 1],
    ["  ≥ 10x  ", 10],
    ["≥ 1e1x", 10],
  ])("%j is the factor %d", (text, bound) => {
    expect(parseBy(text).bound).toBe(bound);
    expect(parseBy(text).text).toBe(text.trim());
  });

  it.each([
    ["≥ 24 %", 1 / 0.76],
    ["≥ 24%", 1 / 0.76],
    [">= 24%", 1 / 0.76],
    ["≥ 50 %", 2],
    ["≥ 0%", 1],
    ["≥ 99.5 %", 200],
  ])("%j saves that share of the time: S ≥ 1 / (1 − P/100) = %d", (text, bound) => {
    expect(parseBy(text).bound).toBeCloseTo(bound, 12);
  });

  it("is exact where the bound is a whole number", () => {
    expect(parseBy("≥ 98 %").bound).toBe(50);
    expect(parseBy("≥ 75%").bound).toBe(4);
  });

  it.each([
    ["> 5x", 'a claim says how much faster at least, so it takes "≥" or ">="'],
    ["<= 5x", 'takes "≥" or ">="'],
    ["≤ 5x", 'takes "≥" or ">="'],
    ["5x", 'start with "≥" or ">=", e.g. "≥ 5x"'],
    ["≥ 5", 'expected "≥" or ">=", a number and "x" (a factor) or "%" (time saved)'],
    ["≥ 5 times", "expected"],
    ["≥ -5x", "expected"],
    ["≥ 5ms", "expected"],
    ["≥ 0.5x", "a factor below 1 would allow"],
    ["≥ 100 %", "below 100 %"],
    ["≥ 150%", "below 100 %"],
    ["≥ 1e999x", "not finite"],
    [5, "got 5"],
    [undefined, "got nothing"],
  ])("rejects %j", (raw, message) => {
    expect(() => parseBy(raw)).toThrow(message);
  });
});

describe("parseClaim", () => {
  it("parses a claim", () => {
    expect(
      parseClaim({ faster: "health/atomic_read", than: "health/rwlock_read", by: "≥ 5x" }, 0),
    ).toEqual({
      index: 0,
      faster: "health/atomic_read",
      than: "health/rwlock_read",
      by: "≥ 5x",
      bound: 5,
    });
  });

  it.each([
    [[], "claim 4: expected a mapping with `faster:`, `than:` and `by:`", "/claims/3"],
    [
      { faster: "a", than: "b", by: "≥ 2x", by_: 1 },
      "claim 4: by_: unknown key (expected faster, than, by)",
      "/claims/3/by_",
    ],
    [{ faster: "a", than: "b" }, "claim 4: by: missing", "/claims/3/by"],
    [{ than: "b", by: "≥ 2x" }, "claim 4: faster: missing", "/claims/3/faster"],
    [
      { faster: "", than: "b", by: "≥ 2x" },
      "claim 4: faster: expected a benchmark id",
      "/claims/3/faster",
    ],
    [{ faster: "a", than: 7, by: "≥ 2x" }, 'e.g. than: "lookup/binary", got 7', "/claims/3/than"],
    [
      { faster: "a", than: "a", by: "≥ 2x" },
      'claim 4: than: the same benchmark as faster ("a")',
      "/claims/3/than",
    ],
    [
      { faster: "a\nb", than: "b", by: "≥ 2x" },
      "faster: contains a control character",
      "/claims/3/faster",
    ],
    [
      { faster: "x".repeat(1025), than: "b", by: "≥ 2x" },
      "longer than 1024 characters",
      "/claims/3/faster",
    ],
    [{ faster: "a", than: "b", by: "> 2x" }, 'claim 4: by: expected "≥" or ">="', "/claims/3/by"],
  ])("rejects %j naming the claim and key", (raw, message, path) => {
    const error = errorOf(() => parseClaim(raw, 3));
    expect(error.message).toContain(message);
    expect(error.jsonPath).toBe(path);
  });

  it("accepts absent claims and refuses a mapping in place of the list", () => {
    expect(parseClaims(undefined)).toEqual([]);
    expect(parseClaims(null)).toEqual([]);
    expect(errorOf(() => parseClaims({ faster: "a" })).jsonPath).toBe("/claims");
    expect(parseClaims([{ faster: "a", than: "b", by: "≥ 24 %" }])[0]?.bound).toBeCloseTo(
      1 / 0.76,
      12,
    );
  });
});
