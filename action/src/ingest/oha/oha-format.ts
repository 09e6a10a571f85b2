// `ingest oha FILE [--name E]`: oha's --output-format json of one endpoint (./oha.ts), read with
// the load tools' byte cap; --name is the endpoint's name, which the file does not carry.
import type { FileFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { MAX_LOAD_FILE_BYTES } from "../load-entries.ts";
import { parseOha } from "./oha.ts";

export const ohaFormat: FileFormatKind<"oha"> = {
  name: "oha",
  input: "file",
  maxBytes: MAX_LOAD_FILE_BYTES,
  help: [
    "oha --output-format json (1.15+) of one endpoint: req/s,",
    "latency p50/p95/p99/p99.9 and error rate; id: --name, then",
    'the metric ("api req/s", "api p99")',
  ],
  nameOption: 'the endpoint\'s name, first word of its ids (default "load")',
  signatures: [
    {
      strength: "marker",
      is: "oha --output-format json output",
      matches: (data) => {
        if (!isObject(data)) return false;
        const summary = field(data, "summary");
        return (
          isObject(summary) &&
          hasField(summary, "successRate") &&
          hasField(data, "latencyPercentiles") &&
          hasField(data, "statusCodeDistribution")
        );
      },
    },
  ],
  parse: (data, source, context) => ({ benchmarks: parseOha(data, source, context) }),
};
