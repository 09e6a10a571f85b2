// history.json's text: one line per series and one per commit. Appending a record then changes
// one line (plus updated_at), so git stores each gh-pages commit as a small delta and a
// reviewer's `git diff` of the branch shows which commit was added or replaced. Pure.
import type { BenchHistory } from "../schemas/history.gen.ts";

function list(name: string, items: readonly unknown[], last: boolean): string {
  const end = last ? "" : ",";
  if (items.length === 0) return `  ${JSON.stringify(name)}: []${end}`;
  const body = items.map((item) => `    ${JSON.stringify(item)}`).join(",\n");
  return `  ${JSON.stringify(name)}: [\n${body}\n  ]${end}`;
}

/** The document as written to gh-pages: valid JSON, stable for equal documents. */
export function serializeHistory(history: BenchHistory): string {
  const head: string[] = [`  "schema_version": ${JSON.stringify(history.schema_version)},`];
  if (history.generator !== undefined)
    head.push(`  "generator": ${JSON.stringify(history.generator)},`);
  if (history.updated_at !== undefined)
    head.push(`  "updated_at": ${JSON.stringify(history.updated_at)},`);
  // Superseded baselines last, and only when there are any: a history without them keeps the
  // bytes it always had.
  const breaks = history.breaks ?? [];
  return [
    "{",
    ...head,
    list("series", history.series, false),
    list("commits", history.commits, breaks.length === 0),
    ...(breaks.length === 0 ? [] : [list("breaks", breaks, true)]),
    "}",
    "",
  ].join("\n");
}
