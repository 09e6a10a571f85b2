import { describe, expect, it } from "vitest";
import { errorOf } from "../../test/support/input-error.ts";
import { parseYamlText } from "./read-document.ts";

const problem = (text: string): string => errorOf(() => parseYamlText(text, "b.yml")).describe();

describe("parseYamlText: benchgate.yml is strict YAML", () => {
  it("refuses an unknown tag, naming the file, the tag and its place", () => {
    // Before, the tag was only a library warning, printed by Node as two YAMLWarning lines on
    // stderr, and the value was kept as if untagged.
    expect(problem("version: 1\nrounds: !foo 3\n")).toBe(
      "b.yml: invalid YAML (Unresolved tag: !foo at line 2, column 9)",
    );
  });

  it("reads a file that starts with a byte-order mark (YAML allows one; editors write it)", () => {
    expect(parseYamlText("\uFEFFversion: 1\n", "b.yml")).toEqual({ version: 1 });
  });

  it("refuses the parser's other warnings too", () => {
    expect(problem("%YAML 1.3\n---\nversion: 1\n")).toBe(
      "b.yml: invalid YAML (Unsupported YAML version 1.3 at line 1, column 7)",
    );
    expect(problem("%FOO bar\n---\nversion: 1\n")).toMatch(
      /^b\.yml: invalid YAML \(Unknown directive/,
    );
  });

  it("refuses duplicate keys, several documents and alias bombs, in one line", () => {
    expect(problem("version: 1\nversion: 1\n")).toBe(
      "b.yml: invalid YAML (Map keys must be unique at line 2, column 1)",
    );
    expect(problem("version: 1\n---\nversion: 1\n")).toBe(
      "b.yml: invalid YAML (Source contains more than one document (---) at line 2, column 1)",
    );
    const bomb = [
      "a: &a [1, 2]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    expect(problem(bomb)).toMatch(/^b\.yml: invalid YAML \(Excessive alias count/);
    for (const text of ["version: 1\nrounds: !foo 3\n", "a: 1\na: 2\n", bomb])
      expect(problem(text)).not.toContain("\n");
  });

  it("refuses collections nested more than 64 deep, flow or block, naming the place", () => {
    // Before, a deep flow overflowed the parser's stack: "Maximum call stack size exceeded" at a
    // column that changed from run to run, and a block mapping 1,000 deep did the same.
    const flow = (n: number): string => `version: 1\nx: ${"[".repeat(n)}1${"]".repeat(n)}\n`;
    const block = (n: number): string =>
      Array.from({ length: n }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") +
      `\n${" ".repeat(n)}v\n`;
    const seq = (n: number): string => `${"- ".repeat(n)}1\n`;
    // The top-level mapping is the first level: 63 more brackets, 64 mappings, 64 sequences pass.
    expect(parseYamlText(flow(63), "b.yml")).toMatchObject({ version: 1 });
    expect(parseYamlText(block(64), "b.yml")).toHaveProperty("k0");
    expect(parseYamlText(seq(64), "b.yml")).toHaveLength(1);
    for (const n of [64, 1_000, 500_000])
      expect(problem(flow(n))).toBe(
        "b.yml: invalid YAML (nested more than 64 levels deep at line 2, column 67)",
      );
    for (const n of [65, 1_000])
      expect(problem(block(n))).toBe(
        "b.yml: invalid YAML (nested more than 64 levels deep at line 65, column 65)",
      );
    expect(problem(seq(65))).toBe(
      "b.yml: invalid YAML (nested more than 64 levels deep at line 1, column 129)",
    );
    // Brackets in text are not nesting.
    const text = `version: 1\nx: "${"[".repeat(100)}"\ny: |\n  ${"{".repeat(100)}\n`;
    expect(parseYamlText(text, "b.yml")).toMatchObject({ x: "[".repeat(100) });
  });

  it("reads standard tags and plain YAML as before", () => {
    expect(parseYamlText("version: 1\nrounds: !!int 3\nx: &v [1]\ny: *v\n", "b.yml")).toEqual({
      version: 1,
      rounds: 3,
      x: [1],
      y: [1],
    });
  });
});
