// GitHub's REST API as its official OpenAPI description says it is (@octokit/openapi, the
// dereferenced api.github.com document): which operation a request is, and whether its
// parameters, body and our fake's response match that operation. The 70 MB document is read
// once per process, and each validator is compiled once, when it is first needed.
//
// The document is OpenAPI 3.0.3, so its schemas are converted before Ajv (2020-12) sees them:
// `nullable` becomes a "null" type (and a null enum member), annotations (`example`,
// `readOnly`, `discriminator`, `x-*`, ...) are dropped by keeping only validation keywords.
// "Strict" validators also reject properties that no schema declares (unevaluatedProperties),
// so a misspelt request field or a fake's invented response field is caught; names that are
// `required` but missing from `properties` (the spec has a few, e.g. a label's description)
// count as declared.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, unknown>;

interface RawParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
  "x-multi-segment"?: boolean;
}

interface RawOperation {
  operationId: string;
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
  externalDocs?: { url: string };
}

type Segment = { literal: string } | { param: string; multi: boolean };

export interface Operation {
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
  readonly docsUrl: string;
  readonly raw: RawOperation;
  readonly segments: readonly Segment[];
}

export interface RouteMatch {
  readonly operation: Operation;
  readonly pathParams: Readonly<Record<string, string>>;
}

/** errors: the request is invalid (GitHub would refuse it); warnings: GitHub would ignore it. */
export interface Findings {
  readonly errors: string[];
  readonly warnings: string[];
}

const SPEC_FILE = createRequire(import.meta.url).resolve(
  "@octokit/openapi/generated/api.github.com.deref.json",
);

let operations: Operation[] | undefined;
/** Milliseconds the document took to read and index (0 until it is loaded). */
export let specLoadMs = 0;

/** Every operation of the document, most specific templates first (literals before params). */
export function githubOperations(): readonly Operation[] {
  if (operations) return operations;
  const started = performance.now();
  const spec = JSON.parse(readFileSync(SPEC_FILE, "utf8")) as {
    paths: Record<string, Record<string, RawOperation>>;
  };
  const list: Operation[] = [];
  for (const [template, methods] of Object.entries(spec.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (typeof raw !== "object" || raw === null || !("operationId" in raw)) continue;
      const multi = new Set(
        (raw.parameters ?? []).filter((p) => p["x-multi-segment"]).map((p) => p.name),
      );
      const segments = template
        .split("/")
        .slice(1)
        .map((s): Segment => {
          const m = /^\{(.+)\}$/.exec(s);
          return m?.[1] ? { param: m[1], multi: multi.has(m[1]) } : { literal: s };
        });
      const docsUrl = raw.externalDocs?.url ?? "https://docs.github.com/rest";
      list.push({
        operationId: raw.operationId,
        method: method.toUpperCase(),
        template,
        docsUrl,
        raw,
        segments,
      });
    }
  }
  list.sort((a, b) => specificity(a.segments, b.segments));
  operations = list;
  specLoadMs = performance.now() - started;
  return list;
}

function specificity(a: readonly Segment[], b: readonly Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = "literal" in a[i]! ? 0 : 1;
    const y = "literal" in b[i]! ? 0 : 1;
    if (x !== y) return x - y;
  }
  return b.length - a.length;
}

function matchSegments(
  segs: readonly Segment[],
  parts: readonly string[],
  out: Record<string, string>,
): boolean {
  const [seg, ...rest] = segs;
  if (!seg) return parts.length === 0;
  if ("literal" in seg) return parts[0] === seg.literal && matchSegments(rest, parts.slice(1), out);
  const most = seg.multi ? parts.length - rest.length : 1;
  for (let take = most; take >= 1; take--) {
    if (parts.length < take) continue;
    if (matchSegments(rest, parts.slice(take), out)) {
      out[seg.param] = parts.slice(0, take).join("/");
      return true;
    }
  }
  return false;
}

/** The operation that METHOD pathname is, or undefined; path segments are percent-decoded. */
export function matchOperation(method: string, pathname: string): RouteMatch | undefined {
  let parts: string[];
  try {
    parts = pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (const operation of githubOperations()) {
    if (operation.method !== method.toUpperCase()) continue;
    const pathParams: Record<string, string> = {};
    if (matchSegments(operation.segments, parts, pathParams)) return { operation, pathParams };
  }
  return undefined;
}

// ---- schema conversion (OpenAPI 3.0 → JSON Schema 2020-12) ----

const KEEP = new Set(
  "type enum const format pattern minLength maxLength minimum maximum multipleOf minItems maxItems uniqueItems minProperties maxProperties required".split(
    " ",
  ),
);

function convert(schema: Json, strict: boolean, inAllOf = false, inBranch = false): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEEP.has(key)) out[key] = value;
    else if (key === "properties") {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([k, v]) => [k, convert(v, strict)]),
      );
    } else if (key === "items" || key === "not") out[key] = convert(value as Json, strict);
    else if (key === "additionalProperties") {
      if (typeof value === "object") out[key] = convert(value as Json, strict);
      else if (!(strict && inBranch && value === true)) out[key] = value;
    } else if (key === "allOf" || key === "anyOf" || key === "oneOf") {
      out[key] = (value as Json[]).map((s) => convert(s, strict, key === "allOf", true));
    }
  }
  const isObject = out["type"] === "object" || (out["type"] === undefined && "allOf" in out);
  if (strict && isObject && !inAllOf && !("additionalProperties" in out)) {
    const props = (out["properties"] ?? {}) as Json;
    for (const name of (out["required"] ?? []) as string[]) props[name] ??= {};
    out["properties"] = props;
    out["unevaluatedProperties"] = false;
  }
  if (schema["nullable"] !== true) return out;
  if (typeof out["type"] === "string") {
    out["type"] = [out["type"], "null"];
    if (Array.isArray(out["enum"])) out["enum"] = [...(out["enum"] as unknown[]), null];
    return out;
  }
  return { anyOf: [{ type: "null" }, out] };
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const coercing = new Ajv2020({
  strict: false,
  allErrors: false,
  validateFormats: false,
  coerceTypes: true,
});
const compiled = new Map<string, ValidateFunction | string>();

/** A cached validator; a schema Ajv cannot compile is reported as a string. */
function validator(
  key: string,
  make: () => { schema: Json; coerce?: boolean },
): ValidateFunction | string {
  let v = compiled.get(key);
  if (v === undefined) {
    const { schema, coerce } = make();
    try {
      v = (coerce ? coercing : ajv).compile(schema);
    } catch (error) {
      v = `schema does not compile: ${error instanceof Error ? error.message : String(error)}`;
    }
    compiled.set(key, v);
  }
  return v;
}

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return "invalid";
  const where = e.instancePath === "" ? "(root)" : e.instancePath;
  const params =
    e.keyword === "required" || e.keyword === "type" ? "" : ` ${JSON.stringify(e.params)}`;
  return `${where} ${e.message ?? e.keyword}${params}`;
}

function check(
  key: string,
  make: () => { schema: Json; coerce?: boolean },
  data: unknown,
): string | undefined {
  const v = validator(key, make);
  if (typeof v === "string") return v;
  return v(data) ? undefined : describe(v.errors);
}

/**
 * Validates and coerces the path and query parameters (query strings to the schema's types).
 * Errors: a path or query parameter missing or invalid. Warnings: query names the operation
 * does not have (GitHub ignores them, so a misspelt per_page would silently do nothing).
 */
export function checkParameters(
  op: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: URLSearchParams,
): Findings & { values: Record<string, unknown> } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const declared = (op.raw.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
  const values: Record<string, unknown> = { ...pathParams };
  for (const [name, value] of query) {
    const p = declared.find((d) => d.in === "query" && d.name === name);
    if (!p) warnings.push(`unknown query parameter ${JSON.stringify(name)} (GitHub ignores it)`);
    else values[name] = p.schema?.["type"] === "array" ? query.getAll(name) : value;
  }
  for (const p of declared) {
    const kind = p.in === "path" ? "path" : "query";
    const value = { [p.name]: values[p.name] };
    if (values[p.name] === undefined) {
      if (p.required) errors.push(`${kind} parameter ${p.name} is required`);
      continue;
    }
    const err = check(
      `${op.operationId} param ${p.name}`,
      () => ({
        schema: { type: "object", properties: { [p.name]: convert(p.schema ?? {}, false) } },
        coerce: true,
      }),
      value,
    );
    if (err) {
      const what = err.replace(/^\/\S+ /, "");
      errors.push(`${kind} parameter ${p.name}=${JSON.stringify(values[p.name])}: ${what}`);
    } else values[p.name] = value[p.name];
  }
  return { errors, warnings, values };
}

/** Errors: a body missing or failing the schema; warnings: properties the schema lacks. */
export function checkRequestBody(op: Operation, body: unknown): Findings {
  const schema = op.raw.requestBody?.content["application/json"]?.schema;
  if (body === undefined) {
    return {
      errors: op.raw.requestBody?.required ? ["request body is required"] : [],
      warnings: [],
    };
  }
  if (!schema) return { errors: ["the operation takes no JSON request body"], warnings: [] };
  const loose = check(`${op.operationId} body`, () => ({ schema: convert(schema, false) }), body);
  if (loose) return { errors: [`request body: ${loose}`], warnings: [] };
  const strict = check(
    `${op.operationId} body strict`,
    () => ({ schema: convert(schema, true) }),
    body,
  );
  return { errors: [], warnings: strict ? [`request body: ${strict} (GitHub ignores it)`] : [] };
}

let basicError: Json | undefined;

/** Problems with a response our fake sends: undocumented 2xx status, or a body failing the schema. */
export function checkResponse(
  op: Operation,
  status: number,
  body: unknown,
  strict = true,
): string[] {
  const documented = op.raw.responses[String(status)] ?? op.raw.responses["default"];
  if (!documented && status < 400) return [`status ${status} is not documented`];
  let schema = documented?.content?.["application/json"]?.schema;
  if (!documented && status >= 400) {
    basicError ??= matchOperation("GET", "/repos/o/r/pulls/1")?.operation.raw.responses["404"]
      ?.content?.["application/json"]?.schema;
    schema = basicError;
  }
  if (!schema) return body === undefined ? [] : [`status ${status} has no body, yet one was sent`];
  if (body === undefined) return [`status ${status} needs a body, none was sent`];
  const key = `${op.operationId} ${documented ? status : "error"}${strict ? " strict" : ""}`;
  const err = check(key, () => ({ schema: convert(schema, strict) }), body);
  return err ? [`response ${status}: ${err}`] : [];
}
