// A local GitHub REST server (node:http on 127.0.0.1, no network) for the action's tests. Every
// request is matched to an operation of GitHub's OpenAPI description, its parameters and body are
// validated, and every response this fake makes is validated against the operation's response
// schema: what fails lands in `violations`, which tests assert stays empty. Faults (5xx, rate
// limits, delays, ambiguous writes, broken JSON, resets) are injected per request matcher.
// State and GitHub objects: github-objects.ts; endpoints: github-routes.ts; the OpenAPI
// validation: openapi-validator.ts.
import http from "node:http";
import type { Socket, AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import * as spec from "./openapi-validator.ts";
import type { Operation } from "./openapi-validator.ts";
import {
  githubObjects,
  iso,
  LEGACY,
  type GitHubState,
  type GitHubUser,
  type Json,
  type PullSeed,
  type Role,
  type Scope,
  type StoredComment,
  type TokenGrant,
} from "./github-objects.ts";
import { error, makeRoutes, type Reply } from "./github-routes.ts";

export * from "./github-objects.ts";

export type FaultKind =
  | { kind: "status"; status: number }
  | { kind: "secondary-rate-limit"; retryAfter?: number; status?: 403 | 429 }
  | { kind: "rate-limit"; resetInSeconds?: number; status?: 403 | 429 }
  | { kind: "delay"; ms: number }
  | { kind: "commit-then-fail"; status?: number }
  | { kind: "malformed-json" }
  | { kind: "connection-reset" };
/** A fault hits requests matching every matcher given, `times` times (default 1). */
export type Fault = FaultKind & {
  method?: string;
  path?: RegExp;
  operationId?: string;
  times?: number;
};
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  operationId?: string;
  user?: string;
  fault?: string;
}
export interface GitHubServerOptions {
  /** The one repository served, "owner/name" (default "octo-org/benchgate-demo"). */
  repository?: string;
  /** token → login or grant; default { "test-token": "github-actions[bot]" }. */
  tokens?: Record<string, string | TokenGrant>;
  /** username → role (permission derived as GitHub does) or both fields verbatim. */
  permissions?: Record<string, Role | { permission: string; role_name: string }>;
  prs?: PullSeed[];
  /** Also flag response properties that no schema declares (default true). */
  strictResponses?: boolean;
  now?: () => Date;
}
export interface GitHubServer {
  readonly url: string;
  readonly state: GitHubState;
  readonly requests: RecordedRequest[];
  readonly violations: string[];
  readonly faults: Fault[];
  /** Rewrites every non-fault response body before validation (to test the validation). */
  responseHook: ((operationId: string, status: number, body: unknown) => unknown) | undefined;
  inject(fault: Fault): void;
  user(login: string, overrides?: Partial<GitHubUser>): GitHubUser;
  seedComment(c: {
    issue_number: number;
    body: string;
    user?: string;
    created_at?: string;
  }): StoredComment;
  close(): Promise<void>;
}

const SECONDARY =
  "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ";
const MESSAGES: Record<number, string> = { 429: "Too Many Requests", 503: "Service Unavailable" };
const hex = (bytes: number): string => randomBytes(bytes).toString("hex").toUpperCase();
const requestId = (): string => `${hex(2)}:${hex(2)}:${hex(3)}:${hex(3)}:${hex(4)}`;

export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  spec.githubOperations(); // read the spec now, not during the first request
  const httpServer = http.createServer();
  const sockets = new Set<Socket>();
  httpServer.on(
    "connection",
    (s: Socket) => void (sockets.add(s), s.on("close", () => sockets.delete(s))),
  );
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const aborter = new AbortController();
  const fake = createFake(
    `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
    options,
  );
  httpServer.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on("error", () => {});
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const out = await fake.handle(req, Buffer.concat(chunks), aborter.signal).catch((e) => {
        fake.server.violations.push(`${req.method} ${req.url}: the fake crashed: ${String(e)}`);
        return error(500, "Server Error");
      });
      if (out === "reset") return void req.socket.destroy();
      const text = out.raw ?? (out.body === undefined ? "" : JSON.stringify(out.body));
      const type = text === "" ? {} : { "content-type": "application/json; charset=utf-8" };
      if (!res.destroyed)
        res.writeHead(out.status, { ...type, ...fake.headers(), ...out.headers }).end(text);
    })();
  });
  return Object.assign(fake.server, {
    close: async () => {
      aborter.abort();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  });
}

function createFake(api: string, options: GitHubServerOptions) {
  const full = options.repository ?? "octo-org/benchgate-demo";
  const tokens = options.tokens ?? { "test-token": "github-actions[bot]" };
  const state: GitHubState = {
    comments: [],
    reactions: [],
    checkRuns: [],
    prs: new Map((options.prs ?? []).map((p) => [p.number, p])),
    permissions: new Map(
      Object.entries(options.permissions ?? {}).map(([u, p]) => [
        u.toLowerCase(),
        typeof p === "string" ? { permission: LEGACY[p], role_name: p } : p,
      ]),
    ),
    users: new Map(),
    tokens: new Map(
      Object.entries(tokens).map(([t, g]) => [t, typeof g === "string" ? { login: g } : g]),
    ),
  };
  const now = (): string => iso(options.now?.() ?? new Date());
  const objects = githubObjects(api, full, state, now);
  const routes = makeRoutes(api, full, state, objects, now);
  let remaining = 5000;
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  const server: Omit<GitHubServer, "close"> = {
    url: api,
    state,
    requests: [],
    violations: [],
    faults: [],
    responseHook: undefined,
    inject: (fault) => void server.faults.push({ times: 1, ...fault }),
    user: objects.user,
    seedComment: (c) =>
      routes.addComment(c.issue_number, c.body, objects.user(c.user ?? "octocat"), c.created_at),
  };
  objects.user("github-actions[bot]", {
    id: 41898282,
    type: "Bot",
    avatar_url: "https://avatars.githubusercontent.com/in/15368?v=4",
  });

  async function handle(
    req: http.IncomingMessage,
    raw: Buffer,
    signal: AbortSignal,
  ): Promise<Reply | "reset"> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", api);
    const entry: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      status: 0,
    };
    server.requests.push(entry);
    remaining = Math.max(0, remaining - 1);
    const violate = (what: string): void =>
      void server.violations.push(
        `${entry.operationId ?? "(no operation)"} ${method} ${url.pathname}: ${what}`,
      );
    const done = (reply: Reply, op?: Operation, validate = true): Reply => {
      if (op && validate) {
        if (server.responseHook)
          reply.body = server.responseHook(op.operationId, reply.status, reply.body);
        for (const problem of spec.checkResponse(
          op,
          reply.status,
          reply.body,
          options.strictResponses ?? true,
        ))
          violate(problem);
      }
      entry.status = reply.status;
      return reply;
    };
    try {
      if (raw.length > 0) entry.body = JSON.parse(raw.toString("utf8")) as unknown;
    } catch {
      violate("request body is not JSON");
      return done(error(400, "Problems parsing JSON"));
    }
    const match = spec.matchOperation(method, url.pathname);
    if (!match) {
      violate("no operation of GitHub's REST API has this method and path");
      return done(error(404, "Not Found"));
    }
    const op = match.operation;
    entry.operationId = op.operationId;
    const params = spec.checkParameters(op, match.pathParams, url.searchParams);
    const body = spec.checkRequestBody(op, entry.body);
    const errors = [...params.errors, ...body.errors];
    for (const problem of [...errors, ...params.warnings, ...body.warnings]) violate(problem);
    if (params.errors.some((e) => e.startsWith("path")))
      return done(error(404, "Not Found", op), op);
    if (errors.length > 0)
      return done(error(422, `Invalid request.\n\n${errors.join("\n")}`, op), op);

    // Faults hit valid requests only: an invalid one is refused as above and consumes none.
    const fault = server.faults.find(
      (f) =>
        (f.times ?? 1) > 0 &&
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.path === undefined || f.path.test(url.pathname)) &&
        (f.operationId === undefined || f.operationId === op.operationId),
    );
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      entry.fault = fault.kind;
      const early = faultReply(fault, op);
      if (early) return early === "reset" ? early : done(early, op, false);
      if (fault.kind === "delay") await sleep(fault.ms, undefined, { signal }).catch(() => {});
    }
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const grant = token === undefined ? undefined : state.tokens.get(token);
    if (!grant)
      return done(error(401, token ? "Bad credentials" : "Requires authentication", op), op);
    entry.user = grant.login;
    const route = routes.table[op.operationId];
    if (!route) {
      violate("the fake does not implement this operation");
      return done(error(404, "Not Found", op), op);
    }
    const need = method === "GET" ? ["read", "write"] : ["write"];
    const granted = (s: Scope): string =>
      grant.permissions?.[s] ?? (s === "metadata" ? "read" : "write");
    if (!route.scopes.some((s) => need.includes(granted(s)))) {
      return done(error(403, "Resource not accessible by integration", op), op);
    }
    // Repository-scoped operations serve only the one repository; users/get-by-id has none.
    if (
      "owner" in params.values &&
      `${String(params.values["owner"])}/${String(params.values["repo"])}`.toLowerCase() !==
        full.toLowerCase()
    ) {
      return done(error(404, "Not Found", op), op);
    }
    const reply = route.run({
      p: params.values,
      body: (entry.body ?? {}) as Json,
      user: objects.user(grant.login),
      url,
      op,
      violate,
    });
    if (fault?.kind === "commit-then-fail")
      return done(error(fault.status ?? 502, "Server Error", op), op, false);
    if (fault?.kind === "malformed-json") {
      const text = JSON.stringify(reply.body ?? {});
      return done({ ...reply, raw: text.slice(0, Math.ceil(text.length / 2)) }, op, false);
    }
    return done(reply, op);
  }

  const headers = (): Record<string, string> => ({
    "x-github-request-id": requestId(),
    "x-github-media-type": "github.v3; format=json",
    "x-github-api-version-selected": "2022-11-28",
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": reset,
    "x-ratelimit-used": String(5000 - remaining),
    "x-ratelimit-resource": "core",
  });
  return { server, handle, headers };
}

function faultReply(fault: Fault, op: Operation): Reply | "reset" | undefined {
  switch (fault.kind) {
    case "status":
      return error(fault.status, MESSAGES[fault.status] ?? "Server Error", op);
    case "secondary-rate-limit":
      return {
        ...error(fault.status ?? 403, `${SECONDARY}${requestId()}.`, op, {
          documentation_url:
            "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        }),
        headers: { "retry-after": String(fault.retryAfter ?? 60) },
      };
    case "rate-limit":
      return {
        ...error(fault.status ?? 403, "API rate limit exceeded for installation ID 12345678.", op, {
          documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
        }),
        headers: {
          "x-ratelimit-remaining": "0",
          "x-ratelimit-used": "5000",
          "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + (fault.resetInSeconds ?? 60)),
        },
      };
    case "connection-reset":
      return "reset";
    default:
      return undefined;
  }
}
