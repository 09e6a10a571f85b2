// The docs hold together: every relative link in README.md and docs/*.md names a file of this
// repository, and every #fragment a heading of that file (as GitHub makes anchors: lower case,
// punctuation dropped, spaces to "-"). A renamed doc or section otherwise leaves dead links.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.ts";

const DOCS = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks. */
function unfenced(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gmu, "");
}

/** The text outside code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return unfenced(markdown).replace(/`[^`\n]*`/gu, "");
}

/** GitHub's anchor for a heading's text. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/gu, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  // A heading's inline code counts: "## `mode: authorize`" is #mode-authorize.
  for (const m of unfenced(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gmu)) {
    const base = anchor(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${String(n)}`);
  }
  return out;
}

describe.each(DOCS)("%s", (doc) => {
  it("links only to files and headings that exist", () => {
    const file = path.join(ROOT, doc);
    const dead: string[] = [];
    for (const m of prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/gu)) {
      const target = m[1] ?? "";
      if (/^[a-z]+:/u.test(target)) continue; // https:, mailto:
      const [rel = "", fragment] = target.split("#");
      const resolved = rel === "" ? file : path.resolve(path.dirname(file), decodeURI(rel));
      if (!existsSync(resolved)) dead.push(target);
      else if (
        fragment !== undefined &&
        resolved.endsWith(".md") &&
        !anchors(resolved).has(fragment)
      )
        dead.push(target);
    }
    expect(dead).toEqual([]);
  });
});
