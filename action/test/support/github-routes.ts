// The endpoints the local GitHub server implements, by operationId, on its in-memory state. A
// route only runs once the request has passed the OpenAPI validation, auth and the repository
// check (github-server.ts); it does GitHub's semantic checks that no schema expresses (a comment
// body's 65536-character limit, a check run's head_sha being a full SHA, conclusion required
// for a completed run) and records the ones that are the caller's bugs as violations. A user is
// found by id (users/get-by-id) only once the server knows them (a comment, a token, user()).
import type { Operation } from "./openapi-validator.ts";
import {
  nodeId,
  type GitHubObjects,
  type GitHubState,
  type GitHubUser,
  type Json,
  type Scope,
  type StoredCheckRun,
  type StoredComment,
} from "./github-objects.ts";

export type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: string;
};
export interface Ctx {
  /** Path and query parameters, coerced to the schema's types. */
  p: Record<string, unknown>;
  body: Json;
  user: GitHubUser;
  url: URL;
  op: Operation;
  violate: (what: string) => void;
}
/** scopes: any one of them, with read (GET) or write (others), lets the request through. */
export type Route = { scopes: Scope[]; run: (c: Ctx) => Reply };

export const error = (
  status: number,
  message: string,
  op?: Operation,
  extra: Json = {},
): Reply => ({
  status,
  body: {
    message,
    documentation_url: op?.docsUrl ?? "https://docs.github.com/rest",
    // GitHub's Validation Error (422) has no status field; its Basic Error has.
    ...(status === 422 ? {} : { status: String(status) }),
    ...extra,
  },
});

const SHA = /^[0-9a-f]{40}$/;
const ROLE_FLAGS: Record<string, string[]> = {
  admin: ["admin", "maintain", "push", "triage", "pull"],
  maintain: ["maintain", "push", "triage", "pull"],
  write: ["push", "triage", "pull"],
  triage: ["triage", "pull"],
  read: ["pull"],
};

/** GitHub's pagination: per_page (default 30, at most 100), page, and the Link header. */
function page<T>(c: Ctx, items: readonly T[]): { items: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(c.p["per_page"] ?? 30) || 30));
  const n = Math.max(1, Number(c.p["page"] ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (to: number, rel: string): string => {
    const u = new URL(c.url);
    u.searchParams.set("page", String(to));
    return `<${u.href}>; rel="${rel}"`;
  };
  const rels = [
    ...(n > 1 ? [link(Math.min(n - 1, last), "prev")] : []),
    ...(n < last ? [link(n + 1, "next"), link(last, "last")] : []),
    ...(n > 1 ? [link(1, "first")] : []),
  ];
  const items_ = items.slice((n - 1) * perPage, n * perPage);
  return { items: items_, headers: rels.length > 0 ? { link: rels.join(", ") } : {} };
}

export function makeRoutes(
  api: string,
  full: string,
  state: GitHubState,
  o: GitHubObjects,
  now: () => string,
) {
  const next = { comment: 2_000_000_000, reaction: 250_000_000, check: 28_000_000_000 };
  const suites = new Map<string, number>();
  const id = (key: keyof typeof next): number => {
    const existing = { comment: state.comments, reaction: state.reactions, check: state.checkRuns }[
      key
    ];
    next[key] = Math.max(next[key], ...existing.map((x) => x.id)) + 1;
    return next[key];
  };
  const findComment = (c: Ctx): StoredComment | undefined =>
    state.comments.find((x) => x.id === c.p["comment_id"]);
  const addComment = (
    issue: number,
    body: string,
    user: GitHubUser,
    at?: string,
  ): StoredComment => {
    const created = at ?? now();
    const comment: StoredComment = {
      id: id("comment"),
      issue_number: issue,
      body,
      user,
      created_at: created,
      updated_at: created,
      author_association: o.association(user.login),
    };
    state.comments.push(comment);
    return comment;
  };
  const tooLong = (c: Ctx, body: string): Reply | undefined => {
    if ([...body].length <= 65536) return undefined;
    c.violate(`comment body has ${[...body].length} characters; GitHub's limit is 65536`);
    return error(422, "Validation Failed", c.op, {
      errors: [
        {
          resource: "IssueComment",
          code: "custom",
          field: "body",
          message: "body is too long (maximum is 65536 characters)",
        },
      ],
    });
  };
  const runOutput = (run: number, out: unknown, count = 0): StoredCheckRun["output"] => {
    const x = (out ?? {}) as { title?: string; summary?: string; text?: string; annotations?: [] };
    return {
      title: x.title ?? null,
      summary: x.summary ?? null,
      text: x.text ?? null,
      annotations_count: count + (x.annotations?.length ?? 0),
      annotations_url: `${api}/repos/${full}/check-runs/${run}/annotations`,
    };
  };
  const commitRef = (ref: string): string | undefined => {
    if (SHA.test(ref)) return ref;
    const name = ref.replace(/^(refs\/)?heads\//, "");
    for (const s of state.prs.values()) {
      if (s.head.ref === name) return s.head.sha;
      if (s.base.ref === name) return s.base.sha;
    }
    return undefined;
  };

  const table: Record<string, Route> = {
    "issues/list-comments": {
      scopes: ["issues", "pull_requests"],
      run: (c) => {
        const since = typeof c.p["since"] === "string" ? Date.parse(c.p["since"]) : -Infinity;
        const all = state.comments
          .filter(
            (x) => x.issue_number === c.p["issue_number"] && Date.parse(x.updated_at) >= since,
          )
          .sort((a, b) => a.id - b.id);
        const { items, headers } = page(c, all);
        return { status: 200, body: items.map(o.comment), headers };
      },
    },
    "issues/create-comment": {
      scopes: ["issues", "pull_requests"],
      run: (c) => {
        const body = String(c.body["body"]);
        const refused = tooLong(c, body);
        if (refused) return refused;
        const json = o.comment(addComment(Number(c.p["issue_number"]), body, c.user));
        return { status: 201, body: json, headers: { location: String(json["url"]) } };
      },
    },
    "issues/update-comment": {
      scopes: ["issues", "pull_requests"],
      run: (c) => {
        const comment = findComment(c);
        if (!comment) return error(404, "Not Found", c.op);
        const body = String(c.body["body"]);
        const refused = tooLong(c, body);
        if (refused) return refused;
        Object.assign(comment, { body, updated_at: now() });
        return { status: 200, body: o.comment(comment) };
      },
    },
    "issues/delete-comment": {
      scopes: ["issues", "pull_requests"],
      run: (c) => {
        const comment = findComment(c);
        if (!comment) return error(404, "Not Found", c.op);
        state.comments.splice(state.comments.indexOf(comment), 1);
        state.reactions = state.reactions.filter((r) => r.comment_id !== comment.id);
        return { status: 204 };
      },
    },
    "reactions/create-for-issue-comment": {
      scopes: ["issues", "pull_requests"],
      run: (c) => {
        const comment = findComment(c);
        if (!comment) return error(404, "Not Found", c.op);
        const content = String(c.body["content"]);
        const same = state.reactions.find(
          (r) => r.comment_id === comment.id && r.content === content && r.user.id === c.user.id,
        );
        const reaction = same ?? {
          id: id("reaction"),
          comment_id: comment.id,
          content,
          user: c.user,
          created_at: now(),
        };
        if (!same) state.reactions.push(reaction);
        const { id: rid, user, content: kind, created_at } = reaction;
        const body = { id: rid, node_id: nodeId("Reaction", rid), user, content: kind, created_at };
        return { status: same ? 200 : 201, body };
      },
    },
    "repos/get-collaborator-permission-level": {
      scopes: ["metadata"],
      run: (c) => {
        const login = String(c.p["username"]);
        const p = state.permissions.get(login.toLowerCase());
        if (!p) return error(404, "Not Found", c.op);
        const flags = ROLE_FLAGS[p.role_name] ?? [];
        const permissions = Object.fromEntries(
          ["admin", "maintain", "push", "triage", "pull"].map((f) => [f, flags.includes(f)]),
        );
        const user = { ...o.user(login), permissions, role_name: p.role_name };
        return { status: 200, body: { permission: p.permission, role_name: p.role_name, user } };
      },
    },
    "pulls/get": {
      scopes: ["pull_requests"],
      run: (c) => {
        const seed = state.prs.get(Number(c.p["pull_number"]));
        return seed ? { status: 200, body: o.pull(seed) } : error(404, "Not Found", c.op);
      },
    },
    "pulls/list-commits": {
      scopes: ["pull_requests"],
      run: (c) => {
        const seed = state.prs.get(Number(c.p["pull_number"]));
        if (!seed) return error(404, "Not Found", c.op);
        const shas = seed.commits ?? [seed.head.sha];
        const { items, headers } = page(
          c,
          shas.map((sha, i) => o.commit(seed, sha, i, shas)),
        );
        return { status: 200, body: items, headers };
      },
    },
    "checks/create": {
      scopes: ["checks"],
      run: (c) => {
        const b = c.body as Partial<Record<string, string>>;
        const headSha = String(b["head_sha"]);
        if (!SHA.test(headSha)) {
          c.violate(`head_sha ${JSON.stringify(headSha)} is not a full commit SHA`);
          return error(422, `No commit found for SHA: ${headSha}`, c.op);
        }
        const status = b["conclusion"] !== undefined ? "completed" : (b["status"] ?? "queued");
        if (status === "completed" && b["conclusion"] === undefined) {
          c.violate("status completed without a conclusion");
          return error(
            422,
            "Invalid request.\n\nconclusion is required when status is completed.",
            c.op,
          );
        }
        const runId = id("check");
        if (!suites.has(headSha)) suites.set(headSha, 26_000_000_000 + suites.size + 1);
        const html = `https://github.com/${full}/runs/${runId}`;
        const run: StoredCheckRun = {
          id: runId,
          name: String(b["name"]),
          node_id: nodeId("CheckRun", runId),
          head_sha: headSha,
          external_id: b["external_id"] ?? "",
          url: `${api}/repos/${full}/check-runs/${runId}`,
          html_url: html,
          details_url: b["details_url"] ?? html,
          status,
          conclusion: b["conclusion"] ?? null,
          started_at: b["started_at"] ?? now(),
          completed_at: status === "completed" ? (b["completed_at"] ?? now()) : null,
          output: runOutput(runId, c.body["output"]),
          check_suite: { id: suites.get(headSha) },
          app: o.app(),
        };
        state.checkRuns.push(run);
        return { status: 201, body: o.checkRun(run) };
      },
    },
    "checks/update": {
      scopes: ["checks"],
      run: (c) => {
        const run = state.checkRuns.find((r) => r.id === c.p["check_run_id"]);
        if (!run) return error(404, "Not Found", c.op);
        const { output, ...b } = c.body;
        Object.assign(run, b);
        if (b["conclusion"] !== undefined) run.status = "completed";
        if (run.status === "completed") run["completed_at"] = b["completed_at"] ?? now();
        if (output !== undefined) {
          run.output = runOutput(run.id, output, Number(run.output["annotations_count"] ?? 0));
        }
        delete run["actions"];
        return { status: 200, body: o.checkRun(run) };
      },
    },
    "users/get-by-id": {
      scopes: ["metadata"],
      run: (c) => {
        const known = [...state.users.values()].find((u) => u.id === c.p["account_id"]);
        if (!known) return error(404, "Not Found", c.op);
        const at = "2018-09-18T23:29:02Z";
        const profile = { name: null, company: null, blog: "", location: null, email: null };
        const counts = { public_repos: 0, public_gists: 0, followers: 0, following: 0 };
        const body = { ...known, ...profile, hireable: null, bio: null, ...counts };
        return { status: 200, body: { ...body, created_at: at, updated_at: at } };
      },
    },
    "checks/list-for-ref": {
      scopes: ["checks"],
      run: (c) => {
        const sha = commitRef(String(c.p["ref"]));
        if (sha === undefined)
          return error(422, `No commit found for SHA: ${String(c.p["ref"])}`, c.op);
        const { check_name: name, status, filter } = c.p;
        let runs = state.checkRuns
          .filter((r) => r.head_sha === sha && (name === undefined || r.name === name))
          .filter((r) => status === undefined || r.status === status)
          .sort((a, b) => b.id - a.id);
        if (filter !== "all")
          runs = runs.filter((r, i) => runs.findIndex((x) => x.name === r.name) === i);
        const { items, headers } = page(c, runs);
        return {
          status: 200,
          body: { total_count: runs.length, check_runs: items.map(o.checkRun) },
          headers,
        };
      },
    },
  };
  return { table, addComment };
}
