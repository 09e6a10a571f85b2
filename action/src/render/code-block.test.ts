import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeBlock } from "./code-block.ts";

describe("codeBlock", () => {
  it("uses a fence longer than any backtick run inside", () => {
    const { markdown } = codeBlock("a ``` b\n````\n</details>", { language: "diff" });
    expect(markdown).toBe("`````diff\na ``` b\n````\n</details>\n`````");
  });

  it("keeps lines, repairs line endings and hostile characters", () => {
    const { markdown } = codeBlock("-old\r\n+new\u202E\u001b[2J\n");
    expect(markdown).toBe("```\n-old\n+new\uFFFD\uFFFD[2J\n```");
  });

  it("caps lines and characters and says how many lines were left out", () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const block = codeBlock(text, { maxLines: 10 });
    expect(block.omittedLines).toBe(490);
    expect(block.markdown.split("\n")).toHaveLength(12);
    expect(codeBlock("x".repeat(5000), { maxLineLength: 100 }).markdown).toContain(
      "x".repeat(99) + "…",
    );
  });

  it("property: no line inside can close the fence", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("`", "~", "\n", " ", "a") }), (text) => {
        const lines = codeBlock(text).markdown.split("\n");
        const fence = lines[0] ?? "";
        expect(fence).toMatch(/^`{3,}$/u);
        expect(lines.at(-1)).toBe(fence);
        for (const line of lines.slice(1, -1))
          expect(line.trimStart().startsWith(fence)).toBe(false);
      }),
    );
  });
});
