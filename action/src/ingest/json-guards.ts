// Shape checks for hostile benchmark JSON (docs/threat-model.md, I2). Every adapter reads the parsed
// document only through these helpers, so each rejection is one InputError that names the file
// and the RFC 6901 JSON pointer of the offending value, and no read ever reaches
// Object.prototype (a file that lacks "constructor" must not yield a function).
import { InputError } from "../errors.ts";

/** Where a value sits: the file it came from and its JSON pointer ("" = the document root). */
export interface At {
  readonly source: string;
  readonly path: string;
}

export type JsonObject = Readonly<Record<string, unknown>>;

/** The largest value the summary schema accepts; bigger values are treated as corrupt. */
export const MAX_VALUE = 1e300;

/** Longest id the summary schema accepts. */
export const MAX_ID_LENGTH = 1024;

export function rootAt(source: string): At {
  return { source, path: "" };
}

/** The location of `key` inside `at` (keys are escaped per RFC 6901). */
export function child(at: At, key: string | number): At {
  const token =
    typeof key === "number" ? String(key) : key.replaceAll("~", "~0").replaceAll("/", "~1");
  return { source: at.source, path: `${at.path}/${token}` };
}

export function fail(at: At, message: string): never {
  throw new InputError(message, { source: at.source, jsonPath: at.path });
}

/** A short description of a JSON value's type for error messages. */
export function jsonType(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return Number.isFinite(value) ? "a number" : "a non-finite number";
  return `a ${typeof value}`;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property only: inherited names such as "constructor" read as absent. */
export function field(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function hasField(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

export function asObject(value: unknown, at: At, what = "an object"): JsonObject {
  if (!isObject(value)) fail(at, `expected ${what}, found ${jsonType(value)}`);
  return value;
}

export function asArray(value: unknown, at: At, what = "an array"): readonly unknown[] {
  if (!Array.isArray(value)) fail(at, `expected ${what}, found ${jsonType(value)}`);
  return value;
}

export function asString(value: unknown, at: At, maxLength = MAX_ID_LENGTH): string {
  if (typeof value !== "string") fail(at, `expected a string, found ${jsonType(value)}`);
  if (value.length > maxLength) fail(at, `string is longer than ${maxLength} characters`);
  return value;
}

export function asOptionalString(
  value: unknown,
  at: At,
  maxLength = MAX_ID_LENGTH,
): string | undefined {
  return value === undefined || value === null ? undefined : asString(value, at, maxLength);
}

/**
 * A finite number in [0, 1e300]. JSON itself has no NaN or Infinity, but `1e400` parses to
 * Infinity, and a negative time or count is never meaningful in these files.
 */
export function asNonNegative(value: unknown, at: At): number {
  if (typeof value !== "number") fail(at, `expected a number, found ${jsonType(value)}`);
  if (!Number.isFinite(value) || Math.abs(value) > MAX_VALUE)
    fail(at, `number is out of range (${value})`);
  if (value < 0) fail(at, `must not be negative (found ${value})`);
  return value;
}

/** A number array of bounded length, each element checked by asNonNegative. */
export function asNumberArray(value: unknown, at: At, maxItems: number): number[] {
  const array = asArray(value, at, "an array of numbers");
  if (array.length > maxItems) fail(at, `array has ${array.length} items, limit ${maxItems}`);
  return array.map((item, i) => asNonNegative(item, child(at, i)));
}

/** A benchmark id: non-empty, within the schema's length, never a prototype-polluting name. */
export function asBenchmarkId(value: unknown, at: At): string {
  const id = asString(value, at, MAX_ID_LENGTH);
  if (id.trim() === "") fail(at, "benchmark id is empty");
  if (id === "__proto__") fail(at, 'benchmark id "__proto__" is not allowed');
  return id;
}

/**
 * Rejects an own `__proto__` key anywhere in a parsed document. JSON.parse makes it a harmless
 * own property, but any later copy into a plain object would turn it into a prototype change,
 * and no benchmark tool writes that key, so its presence marks a crafted file.
 * Depth is already bounded by parseJsonText.
 */
export function assertNoProtoKeys(value: unknown, at: At): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null) assertNoProtoKeys(item, child(at, i));
    }
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (key === "__proto__") fail(child(at, key), 'object key "__proto__" is not allowed');
      const item = value[key];
      if (typeof item === "object" && item !== null) assertNoProtoKeys(item, child(at, key));
    }
  }
}

/** Throws when a new benchmark id repeats one seen before (ids key every later comparison). */
export class IdRegistry {
  readonly #seen = new Map<string, string>();

  /** `where` describes the origin (a JSON pointer or a directory) for the error message. */
  add(id: string, at: At, where: string = at.path): void {
    const first = this.#seen.get(id);
    if (first !== undefined) {
      fail(at, `duplicate benchmark id ${JSON.stringify(id)} (also at ${first})`);
    }
    this.#seen.set(id, where);
  }
}
