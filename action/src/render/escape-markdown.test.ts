import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html.ts";
import { escapeMarkdown, SPLIT } from "./escape-markdown.ts";
import { sanitizeText } from "./sanitize-text.ts";

const INVISIBLE =
  /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** What GitHub shows for one SPLIT-separated segment: entities decoded. */
function decodeEntities(segment: string): string {
  return segment
    .replace(/&#(\d+);/gu, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&lt;/gu, "<")
    .replace(/&gt;/gu, ">")
    .replace(/&quot;/gu, '"')
    .replace(/&amp;/gu, "&");
}

/** Text segments as the mention/reference/autolink filters see them (split at our comments). */
function segments(escaped: string): string[] {
  return escaped.split(SPLIT).map(decodeEntities);
}

// Strings made of the pieces attackers use, so the properties meet them often.
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "|",
        "`",
        "```",
        "\n",
        "\r\n",
        "<",
        ">",
        "&",
        "&#64;",
        "\\",
        "*",
        "_",
        "~",
        "[",
        "]",
        "(",
        ")",
        "#",
        "#1",
        "!",
        "$",
        "@",
        "@org/team",
        "GH-12",
        "gh-3",
        "owner/repo#4",
        "https://github.com/o/r/issues/1",
        "www.example.com",
        "javascript:x",
        "<!--",
        "-->",
        "<!-- benchgate:gate -->",
        "\u202E",
        "\u2066",
        "\u200B",
        "\u200D",
        "\uFEFF",
        "\u2060",
        "\u001b[31m",
        "\u0000",
        ":+1:",
        ":100:",
        ":",
        "\u0085",
        "\u2028",
        "\uD800",
        "1.",
        "- ",
        "+",
        "=",
        " ",
        "w",
        "ww",
      ),
      fc.string({ unit: "binary", maxLength: 4 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 3,
      }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

describe("escapeMarkdown", () => {
  it.each([
    ["fib/20", "fib/20"],
    ["a|b", "a&#124;b"],
    ["`code`", "&#96;code&#96;"],
    ["<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert&#40;1&#41;&gt;"],
    ["[link](javascript:x)", "&#91;link&#93;&#40;javascript:x&#41;"],
    ["@org/team", `@${SPLIT}org/team`],
    ["ping @user now", `ping @${SPLIT}user now`],
    ["fixes #123", `fixes &#35;${SPLIT}123`],
    ["#tag", "&#35;tag"],
    ["see GH-12", `see GH${SPLIT}-12`],
    ["https://github.com/o/r/issues/1", `https${SPLIT}://github.com/o/r/issues/1`],
    ["www.evil.com", `www${SPLIT}.evil.com`],
    [":white_check_mark: pass", `:${SPLIT}white_check_mark: pass`],
    ["a:b", "a:b"],
    ["line1\nline2\r\nline3", "line1 line2 line3"],
    ["abc\u202Edef", "abc\uFFFDdef"],
    ["a\u200Bb\uFEFFc\u2060d", "abcd"],
    ["@\u200Buser", `@${SPLIT}user`],
    ["\u001b[31mred", "\uFFFD&#91;31mred"],
    ["- item", "&#45; item"],
    ["1. first", "1&#46; first"],
    ["  indented", "&#32; indented"],
    [
      "*bold* _it_ ~s~ $x$ !img \\",
      "&#42;bold&#42; &#95;it&#95; &#126;s&#126; &#36;x&#36; &#33;img &#92;",
    ],
    ["&#64;user", `&amp;&#35;${SPLIT}64;user`],
    ["<!-- benchgate:gate -->", "&lt;&#33;-- benchgate:gate --&gt;"],
  ])("escapes %j", (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it("caps long names at 200 visible characters with an ellipsis", () => {
    const out = escapeMarkdown("x".repeat(10_000));
    expect(out).toBe("x".repeat(199) + "…");
    expect(escapeMarkdown("y".repeat(50), { maxLength: 10 })).toBe("y".repeat(9) + "…");
  });

  it("never throws, even for values that are not strings", () => {
    for (const v of [undefined, null, 42, true, {}, [], Symbol("s"), 10n]) {
      expect(() => escapeMarkdown(v)).not.toThrow();
    }
    expect(escapeMarkdown(null)).toBe("");
    expect(escapeMarkdown(42)).toBe("42");
  });

  it("property: output is one inert line", () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const out = escapeMarkdown(input);
        expect(out).not.toMatch(/[|`\n\r]/u);
        expect(out).not.toMatch(INVISIBLE);
        expect(out).not.toMatch(/@\w/u);
        // Every "<" and ">" is part of our empty comment.
        expect(out.split(SPLIT).join("")).not.toMatch(/[<>]/u);
        for (const segment of segments(out)) {
          expect(segment).not.toMatch(/@[A-Za-z0-9_]/u); // @user, @org/team
          expect(segment).not.toMatch(/#\d/u); // #123, owner/repo#1
          expect(segment).not.toMatch(/gh-\d/iu); // GH-123
          expect(segment).not.toMatch(/[a-z]:\/\//iu); // https://…
          expect(segment).not.toMatch(/www\./iu); // www.…
          expect(segment).not.toMatch(/:[\w+-]+:/u); // :emoji:
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("property: what GitHub shows is the sanitized input, unchanged", () => {
    fc.assert(
      fc.property(hostile, (input) => {
        expect(segments(escapeMarkdown(input)).join("")).toBe(sanitizeText(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it("property: never throws on any UTF-16 string, output bounded", () => {
    const anyUtf16 = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      maxLength: 600,
    });
    fc.assert(
      fc.property(anyUtf16, (input) => {
        const out = escapeMarkdown(input);
        expect(Array.from(sanitizeText(input)).length).toBeLessThanOrEqual(200);
        expect(out.length).toBeLessThanOrEqual(200 * 13);
      }),
      { numRuns: 500 },
    );
  });
});

describe("sanitizeText", () => {
  it("makes bidi controls visible, drops zero-width characters, flattens lines", () => {
    expect(sanitizeText("a\u202Eb\u2066c\u200Ed\u061Ce")).toBe("a\uFFFDb\uFFFDc\uFFFDd\uFFFDe");
    expect(sanitizeText("a\u200B\u200C\u200Db\u00ADc\u{E0041}d")).toBe("abcd");
    expect(sanitizeText("a\nb\tc\u2028d")).toBe("a b c d");
    expect(sanitizeText("\uD800x")).toBe("\uFFFDx");
    expect(sanitizeText("\u001b]8;;http://evil\u0007hi")).toBe("\uFFFD]8;;http://evil\uFFFDhi");
  });

  it("never splits a surrogate pair when capping", () => {
    expect(sanitizeText("😀".repeat(300))).toBe("😀".repeat(199) + "…");
  });
});

describe("escapeHtml", () => {
  it("escapes text and attribute metacharacters", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;",
    );
    expect(escapeHtml("x".repeat(1000))).toHaveLength(1000); // no cap by default
    expect(escapeHtml("a\u202Eb\u200Bc\nd")).toBe("a\uFFFDbc d");
  });

  it("property: no raw metacharacters, no stray ampersands", () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const out = escapeHtml(input);
        expect(out).not.toMatch(/[<>"'`\n]/u);
        expect(out).not.toMatch(INVISIBLE);
        expect(out.replace(/&(amp|lt|gt|quot|#39|#96);/gu, "")).not.toContain("&");
      }),
      { numRuns: 1_000 },
    );
  });
});
