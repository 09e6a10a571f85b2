// The shape of github-action-benchmark's history (src/write.ts, src/extract.ts), checked field
// by field: `{lastUpdate, repoUrl, entries: {[suite]: [{commit, date, tool, benches}]}}`, each
// commit `{author, committer, distinct, id, message, timestamp, tree_id, url}` and each bench
// `{name, value, unit, range?, extra?}`. Every rejection names the file and the JSON pointer.
// Suites come back in a Map, so no name ("constructor", "toString") can reach a prototype, and
// an own "__proto__" key anywhere marks a crafted file (gab itself could never store one: its
// `entries[name] = ...` would have set the prototype instead).
//
// Fields benchgate's history has no place for are not errors: they are counted in `dropped`
// so the import can say what it did not keep.
import { parseGabDataText, type GabDataForm } from "./gab-data-js.ts";
import {
  type At,
  MAX_VALUE,
  asArray,
  asBenchmarkId,
  asObject,
  asString,
  assertNoProtoKeys,
  child,
  fail,
  field,
  jsonType,
  rootAt,
  type JsonObject,
} from "../ingest/json-guards.ts";

interface GabBench {
  readonly name: string;
  /** null where gab stored NaN (JSON.stringify writes NaN as null). */
  readonly value: number | null;
  readonly unit: string;
  readonly range: string | undefined;
  readonly extra: string | undefined;
  readonly at: At;
}

export interface GabCommit {
  /** Lower-case 40-hex SHA. */
  readonly id: string;
  readonly message: string;
  readonly timestamp: string;
  readonly url: string | undefined;
  /** The author's name, else username, else "". */
  readonly author: string;
}

/** One `entries[suite][i]`: one run of one suite on one commit. */
interface GabRun {
  readonly suite: string;
  readonly commit: GabCommit;
  /** Milliseconds since the epoch, when gab recorded the run. */
  readonly date: number;
  readonly tool: string;
  readonly benches: readonly GabBench[];
  readonly at: At;
}

export interface GabData {
  readonly form: GabDataForm;
  readonly source: string;
  readonly repoUrl: string | undefined;
  /** Runs by suite name, in file order. */
  readonly suites: ReadonlyMap<string, readonly GabRun[]>;
  /** Field path pattern (e.g. "commit.tree_id") → how many were present but are not kept. */
  readonly dropped: ReadonlyMap<string, number>;
  /** range/extra values that were not strings and were kept as their JSON text. */
  readonly textConversions: number;
}

const MAX_SUITES = 10_000;
const MAX_RUNS_PER_SUITE = 100_000;
const MAX_BENCHES_PER_RUN = 100_000;
/** Free text is bounded by the file cap; this only stops one string from being most of it. */
const MAX_TEXT = 1024 * 1024;
/** The last millisecond of year 9999: later dates have no ISO-8601 form the schema accepts. */
const MAX_DATE_MS = 253_402_300_799_999;
const SHA = /^[0-9a-fA-F]{40}$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/;

const RUN_FIELDS = new Set(["commit", "date", "tool", "benches"]);
const COMMIT_FIELDS = new Set(["id", "message", "timestamp", "url", "author", "committer"]);
const BENCH_FIELDS = new Set(["name", "value", "unit", "range", "extra"]);
// lastUpdate is gab's own write time: an export writes a new one, so it is checked, not kept.
const TOP_FIELDS = new Set(["entries", "repoUrl", "lastUpdate"]);

class Reader {
  readonly dropped = new Map<string, number>();
  textConversions = 0;

  drop(pattern: string): void {
    this.dropped.set(pattern, (this.dropped.get(pattern) ?? 0) + 1);
  }

  /** Counts every own field outside `kept` as dropped under `prefix.name`. */
  dropOthers(obj: JsonObject, kept: ReadonlySet<string>, prefix: string): void {
    for (const key of Object.keys(obj)) if (!kept.has(key)) this.drop(`${prefix}${key}`);
  }

  /** range/extra: text as gab's page shows it; other JSON values kept as their JSON text. */
  text(value: unknown, at: At): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return asString(value, at, MAX_TEXT);
    this.textConversions++;
    return asString(JSON.stringify(value), at, MAX_TEXT);
  }
}

function asValue(value: unknown, at: At): number | null {
  if (value === null) return null;
  if (typeof value !== "number")
    fail(
      at,
      `expected a number, found ${jsonType(value)}${typeof value === "string" ? ` ${JSON.stringify(value.slice(0, 40))}` : ""}`,
    );
  if (!Number.isFinite(value) || Math.abs(value) > MAX_VALUE)
    fail(at, `number is out of range (${value})`);
  if (value < 0)
    fail(at, `must not be negative (found ${value}); benchgate's history holds only values ≥ 0`);
  return value;
}

function readBench(value: unknown, at: At, reader: Reader): GabBench {
  const bench = asObject(value, at, "a bench {name, value, unit}");
  const unit = asString(field(bench, "unit"), child(at, "unit"), 64);
  if (unit.trim() === "") fail(child(at, "unit"), "unit is empty");
  if (unit.length > 32)
    fail(child(at, "unit"), "unit is longer than 32 characters, the history's limit");
  if (field(bench, "value") === undefined) fail(at, 'missing "value"');
  reader.dropOthers(bench, BENCH_FIELDS, "bench.");
  return {
    name: asBenchmarkId(field(bench, "name"), child(at, "name")),
    value: asValue(field(bench, "value"), child(at, "value")),
    unit,
    range: reader.text(field(bench, "range"), child(at, "range")),
    extra: reader.text(field(bench, "extra"), child(at, "extra")),
    at,
  };
}

function optionalString(obj: JsonObject, key: string, at: At): string | undefined {
  const value = field(obj, key);
  return value === undefined || value === null
    ? undefined
    : asString(value, child(at, key), MAX_TEXT);
}

interface Person {
  readonly name: string | undefined;
  readonly username: string | undefined;
  readonly email: string | undefined;
}

const PERSON_FIELDS = new Set(["name", "username", "email"]);

function readPerson(value: unknown, at: At, role: string, reader: Reader): Person | undefined {
  if (value === undefined || value === null) return undefined;
  const person = asObject(value, at, `${role} {name, username, email}`);
  reader.dropOthers(person, PERSON_FIELDS, `commit.${role}.`);
  return {
    name: optionalString(person, "name", at),
    username: optionalString(person, "username", at),
    email: optionalString(person, "email", at),
  };
}

/**
 * The history keeps one name per commit: the author's name, else username. What else the file
 * says about people is counted as dropped, unless it only repeats that name (as an export does).
 */
function personName(
  author: Person | undefined,
  committer: Person | undefined,
  reader: Reader,
): string {
  const name = author?.name ?? author?.username ?? "";
  const repeats = (text: string | undefined): boolean => text === undefined || text === name;
  if (author?.email !== undefined) reader.drop("commit.author.email");
  if (!repeats(author?.username)) reader.drop("commit.author.username");
  if (
    committer !== undefined &&
    !(repeats(committer.name) && repeats(committer.username) && committer.email === undefined)
  )
    reader.drop("commit.committer");
  return name;
}

function readCommit(value: unknown, at: At, reader: Reader): GabCommit {
  const commit = asObject(value, at, "a commit {id, message, timestamp, ...}");
  const id = asString(field(commit, "id"), child(at, "id"), 64);
  if (!SHA.test(id))
    fail(child(at, "id"), `commit id ${JSON.stringify(id)} is not a 40-hex git SHA`);
  const timestamp = asString(field(commit, "timestamp"), child(at, "timestamp"), 40);
  if (!TIMESTAMP.test(timestamp))
    fail(
      child(at, "timestamp"),
      `expected an ISO-8601 date-time, found ${JSON.stringify(timestamp)}`,
    );
  reader.dropOthers(commit, COMMIT_FIELDS, "commit.");
  return {
    id: id.toLowerCase(),
    message: asString(field(commit, "message"), child(at, "message"), MAX_TEXT),
    timestamp,
    url: optionalString(commit, "url", at),
    author: personName(
      readPerson(field(commit, "author"), child(at, "author"), "author", reader),
      readPerson(field(commit, "committer"), child(at, "committer"), "committer", reader),
      reader,
    ),
  };
}

function readRun(value: unknown, at: At, suite: string, reader: Reader): GabRun {
  const run = asObject(value, at, "a run {commit, date, tool, benches}");
  const date = field(run, "date");
  if (typeof date !== "number" || !Number.isFinite(date) || date < 0 || date > MAX_DATE_MS)
    fail(
      child(at, "date"),
      `expected milliseconds since 1970, found ${jsonType(date)} ${JSON.stringify(date) ?? ""}`.trimEnd(),
    );
  const tool = asString(field(run, "tool"), child(at, "tool"), 64);
  if (tool.trim() === "") fail(child(at, "tool"), "tool is empty");
  const benchesAt = child(at, "benches");
  const benches = asArray(field(run, "benches"), benchesAt, "an array of benches");
  if (benches.length > MAX_BENCHES_PER_RUN)
    fail(benchesAt, `${benches.length} benches, limit ${MAX_BENCHES_PER_RUN}`);
  reader.dropOthers(run, RUN_FIELDS, "run.");
  return {
    suite,
    commit: readCommit(field(run, "commit"), child(at, "commit"), reader),
    date,
    tool,
    benches: benches.map((b, i) => readBench(b, child(benchesAt, i), reader)),
    at,
  };
}

/** Checks an already parsed gab history object. */
function readGabData(data: unknown, source: string, form: GabDataForm): GabData {
  const at = rootAt(source);
  const top = asObject(
    data,
    at,
    'github-action-benchmark\'s history {"lastUpdate", "repoUrl", "entries"}',
  );
  assertNoProtoKeys(top, at);
  const reader = new Reader();
  const entriesAt = child(at, "entries");
  const entries = asObject(field(top, "entries"), entriesAt, 'an object of suites ("entries")');
  const names = Object.keys(entries);
  if (names.length > MAX_SUITES) fail(entriesAt, `${names.length} suites, limit ${MAX_SUITES}`);
  const lastUpdate = field(top, "lastUpdate");
  if (lastUpdate !== undefined && (typeof lastUpdate !== "number" || !Number.isFinite(lastUpdate)))
    fail(
      child(at, "lastUpdate"),
      `expected milliseconds since 1970, found ${jsonType(lastUpdate)}`,
    );
  reader.dropOthers(top, TOP_FIELDS, "");
  const repoUrl = optionalString(top, "repoUrl", at);
  const suites = new Map<string, readonly GabRun[]>();
  for (const name of names) {
    const suiteAt = child(entriesAt, name);
    if (name.trim() === "" || name.length > 256)
      fail(suiteAt, "suite name must be 1 to 256 characters");
    const runs = asArray(entries[name], suiteAt, "an array of runs");
    if (runs.length > MAX_RUNS_PER_SUITE)
      fail(suiteAt, `${runs.length} runs, limit ${MAX_RUNS_PER_SUITE}`);
    suites.set(
      name,
      runs.map((run, i) => readRun(run, child(suiteAt, i), name, reader)),
    );
  }
  return {
    form,
    source,
    repoUrl,
    suites,
    dropped: reader.dropped,
    textConversions: reader.textConversions,
  };
}

/** Reads a data.js (or external JSON) text into checked runs. */
export function parseGabData(text: string, source: string): GabData {
  const { form, data } = parseGabDataText(text, source);
  return readGabData(data, source, form);
}
