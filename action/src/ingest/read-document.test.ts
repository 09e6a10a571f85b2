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

  it("reads standard tags and plain YAML as before", () => {
    expect(parseYamlText("version: 1\nrounds: !!int 3\nx: &v [1]\ny: *v\n", "b.yml")).toEqual({
      version: 1,
      rounds: 3,
      x: [1],
      y: [1],
    });
  });
});
