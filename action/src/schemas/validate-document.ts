// Every document benchgate reads or writes is checked against its JSON Schema, then against the
// rules a schema cannot express (unique ids). Failures name the file and JSON path. The
// validators are ajv's standalone code generated from schemas/ at build time (npm run gen), so
// start-up compiles nothing: every CLI call pays for validation, not for compiling validators.
import type { ErrorObject, ValidateFunction } from "ajv";
import * as generated from "./validators.gen.js";
import { InputError } from "../errors.ts";
import { docsUrl } from "../version.ts";
import type { BenchSummary } from "./summary.gen.ts";
import type { BenchReport } from "./report.gen.ts";
import type { BenchgateConfig } from "./config.gen.ts";
import type { BenchHistory } from "./history.gen.ts";
import type { BenchShard } from "./shard.gen.ts";
import { checkConfigPaths } from "./config-paths.ts";

export const DOCUMENT_KINDS = ["summary", "report", "config", "history", "shard"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const VALIDATORS: Readonly<Record<DocumentKind, ValidateFunction>> = {
  summary: generated.summary,
  report: generated.report,
  config: generated.config,
  history: generated.history,
  shard: generated.shard,
};

function describeAjvError(error: ErrorObject | undefined): { path: string; message: string } {
  if (error === undefined) return { path: "", message: "does not match the schema" };
  const path = error.instancePath === "" ? "/" : error.instancePath;
  let message = error.message ?? "is invalid";
  if (error.keyword === "additionalProperties") {
    message = `unexpected property "${String(error.params["additionalProperty"])}"`;
  } else if (error.keyword === "enum") {
    message = `must be one of ${(error.params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  } else if (error.keyword === "not") {
    message = "is a reserved name";
  } else if (error.keyword === "discriminator") {
    // A suite's `kind` picks its schema (config.v1: suites[].kind); say which one is wrong.
    const tag = String(error.params["tag"]);
    const value: unknown = error.params["tagValue"];
    message =
      typeof value === "string"
        ? `"${tag}" ${JSON.stringify(value)} is not a known kind (see ${docsUrl("docs/run.md")})`
        : `needs a "${tag}" (a string naming its kind)`;
  } else if (error.keyword === "const") {
    message = `must be ${JSON.stringify(error.params["allowedValue"])}`;
  }
  return { path, message };
}

function check<T>(kind: DocumentKind, data: unknown, source: string): T {
  const validate = VALIDATORS[kind];
  if (!validate(data)) {
    const { path, message } = describeAjvError(validate.errors?.[0]);
    throw new InputError(`not a valid ${kind}.v1: ${message}`, { source, jsonPath: path });
  }
  return data as T;
}

/** Schema check, then unique `benchmarks[].id` (JSON Schema cannot key uniqueness by a field). */
function checkWithUniqueIds<T extends { benchmarks: readonly { id: string }[] }>(
  kind: "summary" | "report",
  data: unknown,
  source: string,
): T {
  const doc = check<T>(kind, data, source);
  const seen = new Set<string>();
  doc.benchmarks.forEach(({ id }, index) => {
    if (seen.has(id)) {
      throw new InputError(`duplicate benchmark id ${JSON.stringify(id)}`, {
        source,
        jsonPath: `/benchmarks/${index}/id`,
      });
    }
    seen.add(id);
  });
  return doc;
}

/** Validates a summary.json document (schema plus unique ids). */
export function validateSummary(data: unknown, source: string): BenchSummary {
  return checkWithUniqueIds<BenchSummary>("summary", data, source);
}

/** Validates a report.json document (schema plus unique ids). */
export function validateReport(data: unknown, source: string): BenchReport {
  return checkWithUniqueIds<BenchReport>("report", data, source);
}

/** Validates a shard.json document (a sharded run's record of its part). */
export function validateShard(data: unknown, source: string): BenchShard {
  const doc = check<BenchShard>("shard", data, source);
  if (doc.index > doc.count)
    throw new InputError(`shard ${doc.index} of ${doc.count}: the index is above the count`, {
      source,
      jsonPath: "/index",
    });
  return doc;
}

/**
 * Validates a benchgate.yml document (already parsed from YAML): the schema, then the path rule
 * (./config-paths.ts) on every key that names a file, which a schema pattern cannot state well.
 */
export function validateConfig(data: unknown, source: string): BenchgateConfig {
  const config = check<BenchgateConfig>("config", data, source);
  checkConfigPaths(config, source);
  return config;
}

/**
 * Validates a history.json document: the schema, then what it cannot say — one catalogue entry per
 * (suite, id, unit, direction), one record per commit SHA, result indexes that name a series and
 * at most one result per series in a commit.
 */
export function validateHistory(data: unknown, source: string): BenchHistory {
  const doc = check<BenchHistory>("history", data, source);
  const series = new Set<string>();
  doc.series.forEach((s, index) => {
    const key = JSON.stringify([s.suite, s.id, s.unit, s.direction]);
    if (series.has(key))
      throw new InputError(`duplicate series ${JSON.stringify(`${s.suite}/${s.id}`)} (${s.unit})`, {
        source,
        jsonPath: `/series/${index}`,
      });
    series.add(key);
  });
  const shas = new Set<string>();
  doc.commits.forEach((commit, c) => {
    if (shas.has(commit.sha))
      throw new InputError(`duplicate commit ${commit.sha}`, {
        source,
        jsonPath: `/commits/${c}/sha`,
      });
    shas.add(commit.sha);
    const groups: [string, readonly (readonly [number, ...unknown[]])[]][] = [
      ["results", commit.results],
      ["extras", commit.extras ?? []],
    ];
    (commit.reruns ?? []).forEach((rerun, r) => {
      groups.push(
        [`reruns/${r}/results`, rerun.results],
        [`reruns/${r}/extras`, rerun.extras ?? []],
      );
    });
    for (const [field, rows] of groups) {
      const seen = new Set<number>();
      rows.forEach(([index], r) => {
        const jsonPath = `/commits/${c}/${field}/${r}/0`;
        if (index >= doc.series.length)
          throw new InputError(`series index ${index} is out of range`, { source, jsonPath });
        if (seen.has(index))
          throw new InputError(`series index ${index} appears twice in one commit`, {
            source,
            jsonPath,
          });
        seen.add(index);
      });
    }
  });
  return doc;
}

export function validateDocument(
  kind: DocumentKind,
  data: unknown,
  source: string,
): BenchSummary | BenchReport | BenchgateConfig | BenchHistory | BenchShard {
  if (kind === "summary") return validateSummary(data, source);
  if (kind === "shard") return validateShard(data, source);
  if (kind === "report") return validateReport(data, source);
  if (kind === "history") return validateHistory(data, source);
  return validateConfig(data, source);
}
