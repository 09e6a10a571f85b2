// `ingest vegeta FILE [--name E]`: vegeta's report -type=json of one endpoint (./vegeta.ts),
// read with the load tools' byte cap, as oha's (../oha/oha-format.ts).
import type { FileFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { parseVegeta } from "./vegeta.ts";

export const vegetaFormat: FileFormatKind<"vegeta"> = {
  name: "vegeta",
  input: "file",
  maxBytes: MAX_LOAD_FILE_BYTES,
  help: [
    "vegeta report -type=json of one endpoint's attack; the same",
    "entries as oha but p99.9 (vegeta has none)",
  ],
  nameOption: 'the endpoint\'s name, first word of its ids (default "load")',
  signatures: [
    {
      strength: "marker",
      is: "vegeta report -type=json output",
      matches: (data) => {
        if (!isObject(data)) return false;
        const latencies = field(data, "latencies");
        return isObject(latencies) && hasField(latencies, "50th") && hasField(data, "status_codes");
      },
    },
  ],
  parse: (data, source, context) => ({ benchmarks: parseVegeta(data, source, context) }),
};
