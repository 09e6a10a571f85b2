// Reading one untrusted JSON file: byte cap (by the reader, before any byte is decoded), then
// the strict parser's character and depth caps and its key checks (no key twice in an object,
// no "__proto__"), all before JSON.parse.
import type { FileReader } from "../ports/files.ts";
import { parseJsonText } from "../schemas/parse-json.ts";

/** No benchmark format nests anywhere near this deep. */
const MAX_JSON_DEPTH = 32;

export const MiB = 1024 * 1024;

/** Parses already-read text with the same caps and checks as readJson. */
export function parseUntrustedJson(text: string, source: string, maxBytes: number): unknown {
  return parseJsonText(text, source, { maxChars: maxBytes, maxDepth: MAX_JSON_DEPTH });
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
