// github-action-benchmark keeps its history as a script, `data.js`, that the page loads with a
// <script> tag: `window.BENCHMARK_DATA = ` followed by the JSON of the history. With
// `external-data-json-path` it writes the same object as plain JSON. Both are read here as data,
// never evaluated: the exact assignment prefix is removed, an optional trailing semicolon too,
// and what remains must be one JSON value, parsed with the same size and depth limits as every
// other input (docs/threat-model.md, I1 and I6). A file that runs any other script fails the JSON parse.
import { InputError } from "../errors.ts";
import { parseJsonText } from "../schemas/parse-json.ts";

/** What github-action-benchmark writes before the JSON (src/write.ts, `SCRIPT_PREFIX`). */
export const GAB_SCRIPT_PREFIX = "window.BENCHMARK_DATA = ";

/**
 * Largest data.js read. Its format is verbose (about 150 bytes a value plus 700 a commit), so
 * 64 MiB holds some 300,000 values: far more than any published history we have seen.
 */
export const MAX_GAB_DATA_BYTES = 64 * 1024 * 1024;

/** Deepest nesting in a well-formed file is 6 (entries → suite → run → commit → author). */
const MAX_GAB_DEPTH = 16;

export type GabDataForm = "data.js" | "external-json";

interface GabDataText {
  readonly form: GabDataForm;
  readonly json: string;
}

// The assignment as gab writes it, tolerating only spacing around "=" and a byte-order mark.
const ASSIGNMENT = /^\uFEFF?window\.BENCHMARK_DATA[ \t]*=[ \t]*/;

/** Separates the JSON from the script around it, or says why the text is neither form. */
export function gabDataJson(text: string, source: string): GabDataText {
  const prefix = ASSIGNMENT.exec(text);
  if (prefix !== null) {
    let json = text.slice(prefix[0].length).trimEnd();
    if (json.endsWith(";")) json = json.slice(0, -1);
    return { form: "data.js", json };
  }
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("{")) return { form: "external-json", json: start };
  const head = start.slice(0, 40).replace(/[^\x20-\x7e]/g, "?");
  throw new InputError(
    `not github-action-benchmark data: expected "${GAB_SCRIPT_PREFIX.trim()} {" (data.js) or a JSON object (external-data-json-path), found ${JSON.stringify(head)}`,
    { source },
  );
}

/** The parsed, still unchecked, history object of a data.js or external JSON file. */
export function parseGabDataText(
  text: string,
  source: string,
): { form: GabDataForm; data: unknown } {
  if (text.length > MAX_GAB_DATA_BYTES)
    throw new InputError(
      `file is too large (${text.length} characters, limit ${MAX_GAB_DATA_BYTES})`,
      { source },
    );
  const { form, json } = gabDataJson(text, source);
  return {
    form,
    data: parseJsonText(json, source, { maxChars: MAX_GAB_DATA_BYTES, maxDepth: MAX_GAB_DEPTH }),
  };
}
