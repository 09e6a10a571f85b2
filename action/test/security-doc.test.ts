// Keeps docs/security.md — the index from each defence of docs/threat-model.md to its tests —
// true: a defence added to the threat model, a test renamed or a file moved fails here, naming
// the line of docs/security.md to fix.
//
// The format this test reads (every Markdown table of docs/security.md whose header starts
// `| ID |`; other lines are prose):
//
//   | ID | Threat | Test file | Test titles |
//   | R2 | one line | `action/test/x.test.ts` | `a title`<br>`refuses %s` |
//   |    |          | `action/src/y.test.ts`  | `` a title with `backticks` `` |
//   |    |          | —                       | not tested automatically: why |
//
// - ID: a defence ID of docs/threat-model.md (a line starting `**R2.`), or empty for "the same
//   defence as the row above".
// - Test file: one code span, a path from the repository root to an existing `*.test.ts`; or no
//   code span at all (—), and then the last cell must say "not tested automatically" and why.
// - Test titles: code spans separated by `<br>`, each the whole title of a `describe` or `it` in
//   that file, as written in the source (`%s`, `$name` and `${…}` placeholders match anything
//   on the line). A title with a backtick uses a longer fence (``…``); a `|` is written `\|`.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, CORRUPTIONS } from "./hostile/corpus.ts";
import { ROOT } from "./support/cli.ts";

const SECURITY_DOC = "docs/security.md";
const THREAT_MODEL = "docs/threat-model.md";
const UNTESTED = "not tested automatically";

interface DocRow {
  /** 1-based line in the document, for messages. */
  readonly line: number;
  readonly id: string;
  /** Undefined for a "not tested automatically" row. */
  readonly file: string | undefined;
  readonly titles: readonly string[];
}

interface ParsedDoc {
  readonly rows: readonly DocRow[];
  readonly problems: readonly string[];
}

/** The cells of a table row, with `\|` unescaped; the outer pipes are not cells. */
function cellsOf(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.replaceAll("\\|", "|").trim());
}

/** The content of a cell that is exactly one code span, as CommonMark reads it; else undefined. */
function codeSpan(text: string): string | undefined {
  const match = /^(`+)([\s\S]*?[^`])\1$/.exec(text.trim());
  if (match?.[2] === undefined || match[2].includes(match[1] ?? "`")) return undefined;
  const content = match[2];
  const padded = content.length > 1 && content.startsWith(" ") && content.endsWith(" ");
  return padded && content.trim() !== "" ? content.slice(1, -1) : content;
}

function parseRow(line: number, cells: string[], lastId: string | undefined): DocRow | string {
  const at = `${SECURITY_DOC}:${line}`;
  if (cells.length !== 4) return `${at}: expected 4 cells, found ${cells.length}`;
  const [idCell = "", , fileCell = "", titlesCell = ""] = cells;
  const id = idCell === "" ? lastId : idCell;
  if (id === undefined) return `${at}: the first row of a table needs an ID`;
  if (!/^[A-Z]\d+$/.test(id)) return `${at}: "${id}" is not an ID like R2`;
  const file = codeSpan(fileCell);
  if (file === undefined) {
    if (/`/.test(fileCell) || !titlesCell.includes(UNTESTED))
      return `${at} (${id}): the test file must be one code span, or — with "${UNTESTED}: why"`;
    return { line, id, file: undefined, titles: [] };
  }
  const parts = titlesCell.split(/<br\s*\/?>/i);
  const titles = parts.map(codeSpan);
  const bad = parts.filter((_, i) => titles[i] === undefined || titles[i] === "");
  if (bad.length > 0) return `${at} (${id}): each title must be one code span: ${bad.join(" | ")}`;
  return { line, id, file, titles: titles.filter((t) => t !== undefined) };
}

/** Reads every `| ID | …` table of the document. */
function parseSecurityDoc(text: string): ParsedDoc {
  const rows: DocRow[] = [];
  const problems: string[] = [];
  let inTable = false;
  let lastId: string | undefined;
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (!line.startsWith("|")) {
      inTable = false;
      continue;
    }
    const cells = cellsOf(line);
    if (!inTable) {
      inTable = cells[0] === "ID";
      lastId = undefined;
      continue; // the header, or a table of another kind
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue; // the delimiter row
    const row = parseRow(index + 1, cells, lastId);
    if (typeof row === "string") problems.push(row);
    else {
      rows.push(row);
      lastId = row.id;
    }
  }
  return { rows, problems };
}

/** The defence IDs the threat model defines, in its order. */
function threatModelIds(text: string): string[] {
  return [...text.matchAll(/^\*\*([A-Z]\d+)\./gm)].map((m) => m[1] ?? "");
}

const PLACEHOLDER = /%[sdifjoO#%]|\$\{[^}]*\}|\$[A-Za-z_][\w.]*/g;

/**
 * A pattern for the whole string literal `title` in a source file: the quote before and after
 * it, so a test renamed to a longer title does not still match; placeholders match any text
 * inside the same literal.
 */
function titlePattern(title: string): RegExp {
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const body = title
    .split(PLACEHOLDER)
    .map(escape)
    .join(String.raw`(?:(?!\1)[^\n])*?`);
  return new RegExp(String.raw`(["'\x60])${body}\1`);
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), "utf8");

function fileProblem(row: DocRow & { file: string }): string | undefined {
  const where = `${SECURITY_DOC}:${row.line} (${row.id})`;
  if (!row.file.endsWith(".test.ts")) return `${where}: ${row.file} is not a *.test.ts file`;
  const full = path.join(ROOT, row.file);
  if (!existsSync(full) || !statSync(full).isFile()) return `${where}: ${row.file} does not exist`;
  return undefined;
}

describe(SECURITY_DOC, () => {
  const doc = parseSecurityDoc(read(SECURITY_DOC));
  const defined = threatModelIds(read(THREAT_MODEL));
  const tested = doc.rows.filter((row): row is DocRow & { file: string } => row.file !== undefined);

  it("is made only of rows this test can read", () => {
    expect(doc.problems).toEqual([]);
    expect(defined.length).toBeGreaterThan(40); // the threat model's format is still **X9.
  });

  it("has a row for every defence of the threat model, and for no other ID", () => {
    const named = new Set(doc.rows.map((row) => row.id));
    const problems = [
      ...defined
        .filter((id) => !named.has(id))
        .map((id) => `${THREAT_MODEL} defines ${id}, but ${SECURITY_DOC} has no row for it`),
      ...doc.rows
        .filter((row, i) => !defined.includes(row.id) && doc.rows[i - 1]?.id !== row.id)
        .map((row) => `${SECURITY_DOC}:${row.line}: ${row.id} is not a defence of ${THREAT_MODEL}`),
    ];
    expect(problems).toEqual([]);
  });

  it("names only test files that exist", () => {
    expect(tested.map(fileProblem).filter((p) => p !== undefined)).toEqual([]);
  });

  it("names only test titles that occur in their files", () => {
    const problems: string[] = [];
    for (const row of tested) {
      if (fileProblem(row) !== undefined) continue; // reported by the test above
      const source = read(row.file);
      for (const title of row.titles)
        if (!titlePattern(title).test(source))
          problems.push(
            `${SECURITY_DOC}:${row.line} (${row.id}): ${row.file} has no test titled ${JSON.stringify(title)}`,
          );
    }
    expect(problems).toEqual([]);
  });

  it("lists every adapter and corruption of the hostile-input corpus", () => {
    const text = read(SECURITY_DOC);
    const section = text.slice(text.indexOf("## Hostile-input corpus"));
    const names = [...ADAPTERS.map((a) => a.title), ...CORRUPTIONS.map((c) => c.name)];
    const missing = names.filter((name) => !section.includes(`\`${name}\``));
    expect(
      missing.map((name) => `${SECURITY_DOC}, "Hostile-input corpus": ${name} is not listed`),
    ).toEqual([]);
  });
});

describe("the reader of docs/security.md", () => {
  it("carries the ID down, splits titles at <br>, reads long fences and escaped pipes", () => {
    const text = [
      "| ID | Threat | Test file | Test titles |",
      "| --- | --- | --- | --- |",
      "| R2 | x | `a.test.ts` | `one`<br>`` two `ticks` ``<br/>`a \\| b` |",
      "| | | — | not tested automatically: no way to |",
      "",
      "| ID | Threat | Test file | Test titles |",
      "| --- | --- | --- | --- |",
      "| | x | `a.test.ts` | `t` |",
      "| R3 | x | a.test.ts | `t` |",
      "| R4 | x | `a.test.ts` | plain text |",
      "| R5 | x | — | nothing said |",
    ].join("\n");
    const { rows, problems } = parseSecurityDoc(text);
    expect(rows).toEqual([
      { line: 3, id: "R2", file: "a.test.ts", titles: ["one", "two `ticks`", "a | b"] },
      { line: 4, id: "R2", file: undefined, titles: [] },
    ]);
    expect(problems).toEqual([
      `${SECURITY_DOC}:8: the first row of a table needs an ID`,
      `${SECURITY_DOC}:9 (R3): the test file must be one code span, or — with "${UNTESTED}: why"`,
      `${SECURITY_DOC}:10 (R4): each title must be one code span: plain text`,
      `${SECURITY_DOC}:11 (R5): the test file must be one code span, or — with "${UNTESTED}: why"`,
    ]);
  });

  it("matches whole titles only, with placeholders standing for any text", () => {
    const source = [
      `it.each(cases)("refuses %s, naming it", () => {});`,
      "describe(`the corpus (${CASES.length} cases)`, () => {});",
      `it("W4: puts no untrusted \${{ }} inside any run:", () => {});`,
    ].join("\n");
    expect(titlePattern("refuses %s, naming it").test(source)).toBe(true);
    expect(titlePattern("refuses").test(source)).toBe(false); // a prefix is not the title
    expect(titlePattern("the corpus (${CASES.length} cases)").test(source)).toBe(true);
    expect(titlePattern("the corpus (${…} cases)").test(source)).toBe(true);
    expect(titlePattern("W4: puts no untrusted ${{ }} inside any run:").test(source)).toBe(true);
    expect(titlePattern("naming it").test(source)).toBe(false);
  });
});
