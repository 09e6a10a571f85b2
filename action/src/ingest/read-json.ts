// Reading one untrusted JSON file: byte cap (by the reader, before any byte is decoded), then
// character and depth caps (before JSON.parse), then a scan for "__proto__" keys.
import type { FileReader } from "../ports/files.ts";
import { parseJsonText } from "../schemas/parse-json.ts";
import { assertNoProtoKeys, rootAt } from "./json-guards.ts";

/** No benchmark format nests anywhere near this deep. */
export const MAX_JSON_DEPTH = 32;

export const MiB = 1024 * 1024;

/** Parses already-read text with the same caps and checks as readJson. */
export function parseUntrustedJson(text: string, source: string, maxBytes: number): unknown {
  const data = parseJsonText(text, source, { maxChars: maxBytes, maxDepth: MAX_JSON_DEPTH });
  assertNoProtoKeys(data, rootAt(source));
  return data;
}

export async function readJson(
  reader: FileReader,
  path: string,
  maxBytes: number,
): Promise<unknown> {
  const text = await reader.readText(path, maxBytes);
  return parseUntrustedJson(text, path, maxBytes);
}

/** Joins path segments with "/" (accepted by Node on every platform; ingest imports no node:path). */
export function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") || dir.endsWith("\\") ? `${dir}${name}` : `${dir}/${name}`;
}

/** The last segment of a path, ignoring trailing separators. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, "");
  const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  return trimmed.slice(cut + 1);
}
