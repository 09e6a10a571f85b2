// `ingest k6 FILE [--name E]`: k6's --summary-export of one endpoint (./k6.ts), read with the
// load tools' byte cap, as oha's (../oha/oha-format.ts).
import type { FileFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { parseK6 } from "./k6.ts";

export const k6Format: FileFormatKind<"k6"> = {
  name: "k6",
  input: "file",
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
  parse: (data, source, context) => ({ benchmarks: parseK6(data, source, context) }),
};
