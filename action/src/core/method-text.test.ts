// The report's `settings.method` names what was run in words. Its text grows with the product
// (a mode's text plus the sequential design's), and the report schema caps the field: a report
// whose method outgrew the cap would fail its own validation on every run of that mode. This
// checks every text the compare step can write against the cap the schema has today.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { METHOD } from "./compare-summaries.ts";

const schema = JSON.parse(
  readFileSync(new URL("../../../schemas/report.v1.schema.json", import.meta.url), "utf8"),
) as { properties: { settings: { properties: { method: { maxLength: number } } } } };
const cap = schema.properties.settings.properties.method.maxLength;

describe("the report's method text", () => {
  const modes = (Object.keys(METHOD) as (keyof typeof METHOD)[]).filter((m) => m !== "sequential");
  it.each(modes)("%s, alone and with the sequential design, fits the schema's cap", (mode) => {
    expect(METHOD[mode].length).toBeGreaterThan(0);
    expect(`${METHOD[mode]}${METHOD.sequential}`.length).toBeLessThanOrEqual(cap);
  });
});
