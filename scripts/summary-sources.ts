// The summary schema's `source` enum, derived: every input format's source (its `source`, else
// its name, in ingest/registry.ts) and the sources benchgate measures itself. A new format's
// source joins the enum when `npm run gen` runs; the rest of schemas/summary.v1.schema.json is
// edited by hand.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { format } from "prettier";
import { FORMAT_KINDS } from "../action/src/ingest/registry.ts";
import { RESOURCE_SOURCE } from "../action/src/runner/run-service.ts";

export const SUMMARY_SCHEMA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../schemas/summary.v1.schema.json",
);

/**
 * Sources that are no input format's: a load suite's resource entries (a server's memory and
 * open files), which the runner reads from /proc itself (runner/run-service.ts).
 */
const MEASURED_SOURCES = [RESOURCE_SOURCE] as const;

interface SummarySchema {
  $defs: { benchmark: { properties: { source: { enum: string[] } } } };
}

/** The enum's array in the file's text: the rest of the text is kept as written. */
const SOURCE_ENUM = /("source": \{\s*"enum": )\[[^\]]*\]/g;

/**
 * schemas/summary.v1.schema.json with its `source` enum derived. The values already published
 * keep their places, because a validation error lists them in this order ("must be one of …"),
 * and a new one goes last; a value no format or runner writes any more is dropped.
 */
export async function assembleSummarySchema(): Promise<string> {
  const text = await readFile(SUMMARY_SCHEMA, "utf8");
  const current = (JSON.parse(text) as SummarySchema).$defs.benchmark.properties.source.enum;
  const sources = new Set<string>([
    ...FORMAT_KINDS.map((k) => k.source ?? k.name),
    ...MEASURED_SOURCES,
  ]);
  const published = current.filter((s) => sources.has(s));
  const derived = [...published, ...[...sources].filter((s) => !published.includes(s))];
  if ((text.match(SOURCE_ENUM) ?? []).length !== 1)
    throw new Error(`${SUMMARY_SCHEMA}: expected one "source": {"enum": [...]}`);
  const replaced = text.replace(SOURCE_ENUM, (_, head: string) => head + JSON.stringify(derived));
  return format(replaced, { parser: "json", printWidth: 100 });
}
