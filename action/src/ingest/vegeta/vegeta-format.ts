// `ingest vegeta FILE [--name E]`: vegeta's report -type=json of one endpoint (./vegeta.ts).
// Declared "text" and parsed here with the caps of every JSON input, as oha's
// (../oha/oha-format.ts): only a text kind is handed --name.
import type { TextFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { parseUntrustedJson } from "../read-json.ts";
import { parseVegeta } from "./vegeta.ts";

export const vegetaFormat: TextFormatKind<"vegeta"> = {
  name: "vegeta",
  input: "text",
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
  parseText: (text, source, { suite, name, guess }) => ({
    benchmarks: parseVegeta(parseUntrustedJson(text, source, MAX_LOAD_FILE_BYTES), source, {
      suite,
      name,
      guess,
    }),
  }),
};
