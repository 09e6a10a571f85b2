// `ingest gab FILE`: github-action-benchmark's custom JSON (./gab.ts).
import type { FileFormatKind } from "../format-kind.ts";
import { hasField, isObject } from "../json-guards.ts";
import { GAB_SOURCE, parseGab } from "./gab.ts";

export const gabFormat: FileFormatKind<"gab"> = {
  name: "gab",
  input: "file",
  source: GAB_SOURCE,
  help: ["github-action-benchmark's custom JSON [{name,unit,value,range}]"],
  signatures: [
    {
      strength: "shape",
      is: "github-action-benchmark custom JSON",
      matches: (data) => {
        if (!Array.isArray(data)) return false;
        const first: unknown = data[0];
        return (
          isObject(first) &&
          hasField(first, "name") &&
          hasField(first, "value") &&
          hasField(first, "unit")
        );
      },
    },
  ],
  parse: (data, source, { suite, guess }) => ({
    benchmarks: parseGab(data, source, { suite: suite ?? "gab", guess }),
  }),
};
