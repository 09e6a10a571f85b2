// `ingest critcmp FILE`: critcmp's --export (./critcmp.ts).
import type { FileFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { parseCritcmp } from "./critcmp.ts";

export const critcmpFormat: FileFormatKind<"critcmp"> = {
  name: "critcmp",
  input: "file",
  help: ["critcmp --export JSON (estimates only, no samples)"],
  signatures: [
    {
      strength: "shape",
      is: "critcmp --export output",
      matches: (data) => {
        if (!isObject(data)) return false;
        const benchmarks = field(data, "benchmarks");
        if (!isObject(benchmarks)) return false;
        const first = Object.values(benchmarks)[0];
        return isObject(first) && hasField(first, "criterion_estimates_v1");
      },
    },
  ],
  parse: (data, source, { suite, guess }) => ({
    benchmarks: parseCritcmp(data, source, { suite: suite ?? "critcmp", guess }),
  }),
};
