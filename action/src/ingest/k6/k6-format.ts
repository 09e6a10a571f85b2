// `ingest k6 FILE [--name E]`: k6's --summary-export of one endpoint (./k6.ts). Declared "text"
// and parsed here with the caps of every JSON input, as oha's (../oha/oha-format.ts): only a
// text kind is handed --name.
import type { TextFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { parseUntrustedJson } from "../read-json.ts";
import { parseK6 } from "./k6.ts";

export const k6Format: TextFormatKind<"k6"> = {
  name: "k6",
  input: "text",
  maxBytes: MAX_LOAD_FILE_BYTES,
  help: [
    "k6 run --summary-export of one endpoint, with p(99) in",
    "--summary-trend-stats; the same entries as oha (no p99.9",
    "unless exported)",
  ],
  nameOption: 'the endpoint\'s name, first word of its ids (default "load")',
  signatures: [
    {
      strength: "marker",
      is: "k6 --summary-export output",
      matches: (data) =>
        isObject(data) && isObject(field(data, "root_group")) && hasField(data, "metrics"),
    },
  ],
  parseText: (text, source, { suite, name, guess }) => ({
    benchmarks: parseK6(parseUntrustedJson(text, source, MAX_LOAD_FILE_BYTES), source, {
      suite,
      name,
      guess,
    }),
  }),
};
