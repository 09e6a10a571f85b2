// `ingest custom FILE`: benchgate's own summary.json, or a harness summary (./custom.ts).
import { docsUrl } from "../../version.ts";
import type { FileFormatKind } from "../format-kind.ts";
import { hasField, isObject } from "../json-guards.ts";
import { parseCustom } from "./custom.ts";

export const customFormat: FileFormatKind<"custom"> = {
  name: "custom",
  input: "file",
  help: [
    "a benchgate summary.json, or a harness summary with",
    "p50/p95/p99 and raw samples (the formats:",
    `${docsUrl("docs/formats.md")})`,
  ],
  signatures: [
    {
      strength: "marker",
      is: "a benchgate summary.json",
      matches: (data) =>
        isObject(data) && hasField(data, "schema_version") && hasField(data, "benchmarks"),
    },
  ],
  parse: (data, source, { suite, guess }) => {
    const parsed = parseCustom(data, source, { suite, guess });
    if (parsed.kind === "harness") return { benchmarks: parsed.benchmarks };
    // A summary.json keeps its own fields; only --suite, when given, renames its suites.
    const benchmarks = parsed.summary.benchmarks.map((b) =>
      suite === undefined ? b : { ...b, suite },
    );
    return { benchmarks, passthrough: parsed.summary };
  },
};
