// The PR comment commands (docs/action.md, "mode: authorize"), parsed by a strict grammar
// (docs/threat-model.md, C1). Only the first non-empty line counts, and it must *start* with the
// command: quoted (`> /rebench`), fenced, inline-code or commented-out text is never a command.
// Pure.
//
//   /rebench                      benchmark the PR's head as it is now
//   /rebench <filter>             only benchmarks whose id matches <filter> (a regex)
//   /rebench [<filter>] rounds=N  with N interleaved rounds (1–50)
//   /rebench <sha> [...]          only if <sha> (all 40 hex digits) is still the PR's head:
//                                 the approval names the commit the maintainer reviewed
//   /benchgate accept <sha> <reason>
//                                 accept the regressions that benchgate's failed check of <sha>
//                                 (all 40 hex digits, still the PR's head) lists, with a reason:
//                                 the SHA is required, so the acceptance names what was reviewed
export type Command =
  | {
      readonly kind: "rebench";
      readonly filter?: string;
      readonly rounds?: number;
      readonly sha?: string;
    }
  | { readonly kind: "accept"; readonly sha: string; readonly reason: string }
  /** Not addressed to us: say nothing. */
  | { readonly kind: "ignored" }
  /** Addressed to us but malformed: answer with the usage. */
  | { readonly kind: "invalid"; readonly problem: string };

export const USAGE =
  "usage: `/rebench [<sha>] [<filter>] [rounds=N]` (the full 40-hex head SHA, a filter regex, N from 1 to 50), or `/benchgate accept <sha> <reason>` (the full 40-hex head SHA whose failed benchmark you reviewed)";

/** Only this much of a body is looked at: the first line is all that matters. */
const SCAN_CHARS = 4096;
const MAX_ROUNDS = 50;
const FILTER = /^[A-Za-z0-9_./:*+?^$()|[\]{}\\-]{1,200}$/;
const FULL_SHA = /^[0-9a-f]{40}$/;
/** Hex that looks like an attempt at a commit (an abbreviated or mistyped SHA), not a filter. */
const SHA_LIKE = /^[0-9a-fA-F]{7,64}$/;
// Zero-width, bidi controls, BOM: text that reads differently than it is.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function firstLine(body: string): string | undefined {
  const head = body.slice(0, SCAN_CHARS);
  for (const raw of head.split("\n")) {
    const line = raw.replace(/[ \t\r]+$/, "");
    if (line.trim() !== "") return line;
  }
  return undefined;
}

function parseRebench(args: readonly string[]): Command {
  let filter: string | undefined;
  let rounds: number | undefined;
  let sha: string | undefined;
  for (const arg of args) {
    if (FULL_SHA.test(arg) || (SHA_LIKE.test(arg) && /[0-9]/.test(arg))) {
      if (!FULL_SHA.test(arg))
        return {
          kind: "invalid",
          problem: "a commit must be given as its full 40-character lower-case SHA",
        };
      if (sha !== undefined) return { kind: "invalid", problem: "more than one commit" };
      sha = arg;
      continue;
    }
    const kv = /^([a-z]+)=(.*)$/.exec(arg);
    if (kv !== null) {
      if (kv[1] !== "rounds")
        return { kind: "invalid", problem: `unknown option ${JSON.stringify(kv[1])}` };
      if (rounds !== undefined) return { kind: "invalid", problem: "rounds= given twice" };
      const n = Number(kv[2]);
      if (!/^\d{1,3}$/.test(kv[2] ?? "") || n < 1 || n > MAX_ROUNDS)
        return {
          kind: "invalid",
          problem: `rounds must be a whole number from 1 to ${MAX_ROUNDS}`,
        };
      rounds = n;
      continue;
    }
    if (filter !== undefined) return { kind: "invalid", problem: "more than one filter" };
    if (!FILTER.test(arg))
      return {
        kind: "invalid",
        problem:
          "the filter may only use letters, digits and regex punctuation (no spaces, quotes or ;)",
      };
    filter = arg;
  }
  return {
    kind: "rebench",
    ...(filter === undefined ? {} : { filter }),
    ...(rounds === undefined ? {} : { rounds }),
    ...(sha === undefined ? {} : { sha }),
  };
}

export function parseCommand(body: string): Command {
  const line = firstLine(body);
  if (line === undefined || !line.startsWith("/")) return { kind: "ignored" };
  const word = /^\/([A-Za-z]+)/.exec(line)?.[1] ?? "";
  if (word !== "rebench" && word !== "benchgate") return { kind: "ignored" };
  const rest = line.slice(word.length + 1);
  if (/^[A-Za-z0-9_-]/.test(rest)) return { kind: "ignored" }; // e.g. /rebenchmark
  if (INVISIBLE.test(line) || CONTROL.test(line))
    return { kind: "invalid", problem: "the command contains invisible or control characters" };
  if (rest !== "" && !/^[ \t]/.test(rest))
    return {
      kind: "invalid",
      problem: `unexpected ${JSON.stringify(rest.slice(0, 1))} right after /${word}`,
    };
  const args = rest.trim() === "" ? [] : rest.trim().split(/[ \t]+/);
  if (word === "rebench") return parseRebench(args);
  if (args[0] !== "accept")
    return { kind: "invalid", problem: "the only /benchgate command is `accept <sha> <reason>`" };
  return parseAccept(rest.trim().slice("accept".length).trim());
}

/** `<sha> <reason>`: the SHA first and in full, never read out of the reason. */
function parseAccept(args: string): Command {
  const sha = /^[^ \t]*/.exec(args)?.[0] ?? "";
  if (!FULL_SHA.test(sha))
    return {
      kind: "invalid",
      problem:
        sha === "" || !SHA_LIKE.test(sha)
          ? "accepting a regression needs the commit you reviewed: its full 40-character SHA, then a reason"
          : "a commit must be given as its full 40-character lower-case SHA",
    };
  const reason = args.slice(sha.length).trim();
  if (reason === "") return { kind: "invalid", problem: "accepting a regression needs a reason" };
  if (reason.length > 500)
    return { kind: "invalid", problem: "the reason is longer than 500 characters" };
  return { kind: "accept", sha, reason };
}
