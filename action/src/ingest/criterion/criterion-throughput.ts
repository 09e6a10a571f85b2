// Criterion's `Throughput` (docs/formats.md, "Criterion"): units processed per iteration.
// Variants by version: Bytes, Elements (all), BytesDecimal (0.4), Bits (0.7),
// ElementsAndBytes (0.8). critcmp 0.1.8 stores its own struct of optional Bytes/Elements.
import type { Throughput } from "../../schemas/summary.gen.ts";
import { type At, asNonNegative, asObject, child, fail, field } from "../json-guards.ts";

function throughputCount(value: unknown, at: At): number {
  return asNonNegative(value, at);
}

/**
 * Criterion's externally tagged `Throughput` enum, or critcmp's struct of optional fields
 * (`{"Bytes":null,"Elements":1000}`); null variants are skipped, unknown ones noted.
 */
export function parseThroughput(
  value: unknown,
  at: At,
): { throughput: Throughput[]; notes: string[] } {
  const throughput: Throughput[] = [];
  const notes: string[] = [];
  if (value === undefined || value === null) return { throughput, notes };
  const obj = asObject(value, at, "a throughput object or null");
  const add = (entry: Throughput, where: At): void => {
    if (throughput.some((t) => t.kind === entry.kind))
      fail(where, `throughput has two ${entry.kind} counts`);
    throughput.push(entry);
  };
  for (const variant of Object.keys(obj)) {
    const raw = obj[variant];
    const where = child(at, variant);
    if (raw === null) continue;
    switch (variant) {
      case "Bytes":
        add({ kind: "bytes", per_iteration: throughputCount(raw, where) }, where);
        break;
      case "BytesDecimal":
        add({ kind: "bytes", per_iteration: throughputCount(raw, where), decimal: true }, where);
        break;
      case "Elements":
        add({ kind: "elements", per_iteration: throughputCount(raw, where) }, where);
        break;
      case "Bits":
        add({ kind: "bits", per_iteration: throughputCount(raw, where) }, where);
        break;
      case "ElementsAndBytes": {
        const pair = asObject(raw, where, "an object {elements, bytes}");
        add(
          {
            kind: "elements",
            per_iteration: throughputCount(field(pair, "elements"), child(where, "elements")),
          },
          where,
        );
        add(
          {
            kind: "bytes",
            per_iteration: throughputCount(field(pair, "bytes"), child(where, "bytes")),
          },
          where,
        );
        break;
      }
      default:
        notes.push(`unknown throughput variant ${JSON.stringify(variant.slice(0, 64))} ignored`);
    }
  }
  return { throughput, notes };
}
