// `ingest hyperfine FILE`: hyperfine's --export-json (./hyperfine.ts).
import type { FileFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { parseHyperfine } from "./hyperfine.ts";

export const hyperfineFormat: FileFormatKind<"hyperfine"> = {
  name: "hyperfine",
  input: "file",
  help: ["hyperfine --export-json (>= 1.15); failed commands are errors"],
  signatures: [
    {
      strength: "shape",
      is: "hyperfine --export-json output",
      matches: (data) => {
        if (!isObject(data)) return false;
        const results = field(data, "results");
        if (!Array.isArray(results) || !hasField(data, "results")) return false;
        const first: unknown = results[0];
        return isObject(first) && hasField(first, "command");
      },
    },
  ],
  parse: (data, source, { suite, guess }) => ({
    benchmarks: parseHyperfine(data, source, { suite: suite ?? "hyperfine", guess }),
  }),
};
