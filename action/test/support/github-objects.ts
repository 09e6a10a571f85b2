// The GitHub objects the local server (github-server.ts) keeps and returns: its in-memory state,
// and builders that turn that state into users, repositories, pull requests, commits, issue
// comments and check runs complete enough to pass the OpenAPI response schemas (every required
// property, realistic ids, node ids, URLs and timestamps).

export type Role = "admin" | "maintain" | "write" | "triage" | "read" | "none";
export type Scope = "issues" | "pull_requests" | "checks" | "metadata";
export type Json = Record<string, unknown>;
export interface GitHubUser extends Json {
  login: string;
  id: number;
  type: string;
}
/** Who a token acts as; `permissions` like a GITHUB_TOKEN's (default: write on every scope). */
export interface TokenGrant {
  login: string;
  permissions?: Partial<Record<Scope, "read" | "write" | "none">>;
}
export interface PullSeed {
  number: number;
  /** head.repo: "owner/name" of a fork; default the served repository. */
  head: { sha: string; ref: string; repo?: string };
  base: { sha: string; ref: string };
  /** SHAs, oldest first; default [head.sha]. */
  commits?: string[];
  title?: string;
  body?: string | null;
  state?: "open" | "closed";
  draft?: boolean;
  locked?: boolean;
  merged?: boolean;
  /** Author login (default "octocat"). */
  user?: string;
}
export interface StoredComment {
  id: number;
  issue_number: number;
  body: string;
  user: GitHubUser;
  created_at: string;
  updated_at: string;
  author_association: string;
}
export interface StoredReaction {
  id: number;
  comment_id: number;
  content: string;
  user: GitHubUser;
  created_at: string;
}
/** The check-run object GitHub returns (pull_requests is recomputed on each response). */
export interface StoredCheckRun extends Json {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null } & Json;
}
export interface GitHubState {
  comments: StoredComment[];
  reactions: StoredReaction[];
  checkRuns: StoredCheckRun[];
  prs: Map<number, PullSeed>;
  /** lower-cased username → what the permission endpoint says; anyone else gets 404. */
  permissions: Map<string, { permission: string; role_name: string }>;
  users: Map<string, GitHubUser>;
  tokens: Map<string, TokenGrant>;
}

/** The legacy `permission` GitHub reports for each role (it never says maintain or triage). */
export const LEGACY: Record<Role, string> = {
  admin: "admin",
  maintain: "write",
  write: "write",
  triage: "read",
  read: "read",
  none: "none",
};
export const REACTIONS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];
/** GitHub's legacy global node id, e.g. nodeId("Bot", 41898282) = "MDM6Qm90NDE4OTgyODI=". */
export const nodeId = (type: string, id: number): string =>
  Buffer.from(`0${type.length}:${type}${id}`).toString("base64");
export const iso = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export type GitHubObjects = ReturnType<typeof githubObjects>;

/** Builders for the objects of the one repository `full` ("owner/name") served at `api`. */
export function githubObjects(api: string, full: string, state: GitHubState, now: () => string) {
  const created = now();
  const ids = new Map<string, number>();
  const idOf = (kind: string, key: string, base: number): number => {
    const k = `${kind}:${key.toLowerCase()}`;
    if (!ids.has(k)) ids.set(k, base + ids.size + 1);
    return ids.get(k)!;
  };
  const user = (login: string, overrides: Partial<GitHubUser> = {}): GitHubUser => {
    const known = state.users.get(login.toLowerCase());
    if (known && Object.keys(overrides).length === 0) return known;
    const id = overrides.id ?? known?.id ?? idOf("user", login, 5_000_000);
    const type = overrides.type ?? known?.type ?? (login.endsWith("[bot]") ? "Bot" : "User");
    const url = `${api}/users/${encodeURIComponent(login)}`;
    const made: GitHubUser = {
      login,
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: "",
      url,
      html_url:
        type === "Bot"
          ? `https://github.com/apps/${login.replace(/\[bot\]$/, "")}`
          : `https://github.com/${login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      user_view_type: "public",
      site_admin: false,
      ...known,
      id,
      type,
      node_id: nodeId(type, id),
      ...overrides,
    };
    state.users.set(login.toLowerCase(), made);
    return made;
  };
  const repo = (name: string): Json => {
    const [owner = "", short = ""] = name.split("/");
    const url = `${api}/repos/${name}`;
    const html = `https://github.com/${name}`;
    const templated = Object.fromEntries(
      (
        "archive_url /{archive_format}{/ref}|assignees_url /assignees{/user}|blobs_url /git/blobs{/sha}|branches_url /branches{/branch}|" +
        "collaborators_url /collaborators{/collaborator}|comments_url /comments{/number}|commits_url /commits{/sha}|compare_url /compare/{base}...{head}|" +
        "contents_url /contents/{+path}|contributors_url /contributors|deployments_url /deployments|downloads_url /downloads|events_url /events|" +
        "forks_url /forks|git_commits_url /git/commits{/sha}|git_refs_url /git/refs{/sha}|git_tags_url /git/tags{/sha}|hooks_url /hooks|" +
        "issue_comment_url /issues/comments{/number}|issue_events_url /issues/events{/number}|issues_url /issues{/number}|keys_url /keys{/key_id}|" +
        "labels_url /labels{/name}|languages_url /languages|merges_url /merges|milestones_url /milestones{/number}|" +
        "notifications_url /notifications{?since,all,participating}|pulls_url /pulls{/number}|releases_url /releases{/id}|stargazers_url /stargazers|" +
        "statuses_url /statuses/{sha}|subscribers_url /subscribers|subscription_url /subscription|tags_url /tags|teams_url /teams|trees_url /git/trees{/sha}"
      )
        .split("|")
        .map((pair) => pair.split(" "))
        .map(([key = "", suffix = ""]) => [key, `${url}${suffix}`]),
    );
    const id = idOf("repo", name, 700_000_000);
    return {
      id,
      node_id: nodeId("Repository", id),
      name: short,
      full_name: name,
      private: false,
      owner: user(owner),
      html_url: html,
      description: null,
      fork: name.toLowerCase() !== full.toLowerCase(),
      url,
      ...templated,
      created_at: created,
      updated_at: created,
      pushed_at: created,
      git_url: `git://github.com/${name}.git`,
      ssh_url: `git@github.com:${name}.git`,
      clone_url: `${html}.git`,
      svn_url: html,
      homepage: null,
      size: 1024,
      stargazers_count: 0,
      watchers_count: 0,
      language: "Rust",
      has_issues: true,
      has_projects: true,
      has_downloads: true,
      has_wiki: true,
      has_pages: false,
      has_discussions: false,
      forks_count: 0,
      mirror_url: null,
      archived: false,
      disabled: false,
      open_issues_count: state.prs.size,
      license: null,
      allow_forking: true,
      is_template: false,
      web_commit_signoff_required: false,
      topics: [],
      visibility: "public",
      forks: 0,
      open_issues: state.prs.size,
      watchers: 0,
      default_branch: "main",
    };
  };
  const association = (login: string): string => {
    if (login.toLowerCase() === full.split("/")[0]?.toLowerCase()) return "OWNER";
    const p = state.permissions.get(login.toLowerCase())?.permission;
    return p === "admin" || p === "write" || p === "maintain" ? "COLLABORATOR" : "NONE";
  };
  const comment = (c: StoredComment): Json => {
    const url = `${api}/repos/${full}/issues/comments/${c.id}`;
    const kind = state.prs.has(c.issue_number) ? "pull" : "issues";
    const counts = Object.fromEntries(
      REACTIONS.map((r) => [
        r,
        state.reactions.filter((x) => x.comment_id === c.id && x.content === r).length,
      ]),
    );
    const { issue_number, ...rest } = c;
    return {
      ...rest,
      url,
      html_url: `https://github.com/${full}/${kind}/${issue_number}#issuecomment-${c.id}`,
      issue_url: `${api}/repos/${full}/issues/${issue_number}`,
      node_id: nodeId("IssueComment", c.id),
      performed_via_github_app: null,
      reactions: {
        url: `${url}/reactions`,
        total_count: state.reactions.filter((x) => x.comment_id === c.id).length,
        ...counts,
      },
    };
  };
  const pull = (s: PullSeed): Json => {
    const url = `${api}/repos/${full}/pulls/${s.number}`;
    const html = `https://github.com/${full}/pull/${s.number}`;
    const issue = `${api}/repos/${full}/issues/${s.number}`;
    const side = (b: { sha: string; ref: string; repo?: string }): Json => {
      const r = repo(b.repo ?? full);
      return {
        label: `${String((r["owner"] as GitHubUser).login)}:${b.ref}`,
        ref: b.ref,
        sha: b.sha,
        user: r["owner"],
        repo: r,
      };
    };
    const links = {
      self: url,
      html,
      issue,
      comments: `${issue}/comments`,
      review_comments: `${url}/comments`,
    };
    const closed = s.state === "closed" || s.merged === true;
    const id = idOf("pull", String(s.number), 1_800_000_000);
    return {
      url,
      id,
      node_id: nodeId("PullRequest", id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      number: s.number,
      state: closed ? "closed" : "open",
      locked: s.locked ?? false,
      title: s.title ?? `Pull request #${s.number}`,
      user: user(s.user ?? "octocat"),
      body: s.body ?? null,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: created,
      updated_at: created,
      closed_at: closed ? created : null,
      merged_at: s.merged ? created : null,
      merge_commit_sha: s.merged ? s.head.sha : null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${api}/repos/${full}/pulls/comments{/number}`,
      comments_url: `${issue}/comments`,
      statuses_url: `${api}/repos/${full}/statuses/${s.head.sha}`,
      head: side(s.head),
      base: side(s.base),
      _links: {
        ...Object.fromEntries(Object.entries(links).map(([k, href]) => [k, { href }])),
        review_comment: { href: `${api}/repos/${full}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${api}/repos/${full}/statuses/${s.head.sha}` },
      },
      author_association: association(s.user ?? "octocat"),
      auto_merge: null,
      draft: s.draft ?? false,
      merged: s.merged ?? false,
      mergeable: closed ? null : true,
      rebaseable: closed ? null : true,
      mergeable_state: closed ? "unknown" : "clean",
      merged_by: s.merged ? user(s.user ?? "octocat") : null,
      comments: state.comments.filter((c) => c.issue_number === s.number).length,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: (s.commits ?? [s.head.sha]).length,
      additions: 10,
      deletions: 2,
      changed_files: 1,
    };
  };
  const commit = (s: PullSeed, sha: string, i: number, all: readonly string[]): Json => {
    const author = user(s.user ?? "octocat");
    const git = {
      name: author.login,
      email: `${author.id}+${author.login}@users.noreply.github.com`,
      date: created,
    };
    const ref = (x: string): Json => ({
      sha: x,
      url: `${api}/repos/${full}/commits/${x}`,
      html_url: `https://github.com/${full}/commit/${x}`,
    });
    return {
      ...ref(sha),
      node_id: Buffer.from(`04:Commit${sha}`).toString("base64"),
      comments_url: `${api}/repos/${full}/commits/${sha}/comments`,
      commit: {
        url: `${api}/repos/${full}/git/commits/${sha}`,
        author: git,
        committer: git,
        message: `Commit ${i + 1} of #${s.number}`,
        tree: {
          sha: sha.split("").reverse().join(""),
          url: `${api}/repos/${full}/git/trees/${sha.split("").reverse().join("")}`,
        },
        comment_count: 0,
        verification: {
          verified: false,
          reason: "unsigned",
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      author,
      committer: author,
      parents: [ref(i === 0 ? s.base.sha : (all[i - 1] ?? s.base.sha))],
    };
  };
  const app = (): Json => ({
    id: 15368,
    slug: "github-actions",
    client_id: "Iv1.05c79e9ad1f6bdfa",
    node_id: "MDM6QXBwMTUzNjg=",
    // This copy of Simple User in the spec (a check run's app owner) has no user_view_type.
    owner: Object.fromEntries(
      Object.entries(user("github", { id: 9919, type: "Organization" })).filter(
        ([key]) => key !== "user_view_type",
      ),
    ),
    name: "GitHub Actions",
    description: "Automate your workflow from idea to production",
    external_url: "https://help.github.com/en/actions",
    html_url: "https://github.com/apps/github-actions",
    created_at: "2018-07-30T09:30:17Z",
    updated_at: "2024-04-10T20:33:16Z",
    permissions: {
      actions: "write",
      checks: "write",
      contents: "write",
      issues: "write",
      metadata: "read",
      pull_requests: "write",
    },
    events: [
      "branch_protection_rule",
      "check_run",
      "check_suite",
      "issue_comment",
      "pull_request",
      "push",
    ],
  });
  const checkRun = (run: StoredCheckRun): Json => ({
    ...run,
    pull_requests: [...state.prs.values()]
      .filter((s) => s.head.sha === run.head_sha && s.state !== "closed")
      .map((s) => {
        const p = pull(s);
        const min = (side: Json): Json => {
          const r = side["repo"] as Json;
          return {
            ref: side["ref"],
            sha: side["sha"],
            repo: { id: r["id"], url: r["url"], name: r["name"] },
          };
        };
        return {
          id: p["id"],
          number: s.number,
          url: p["url"],
          head: min(p["head"] as Json),
          base: min(p["base"] as Json),
        };
      }),
  });
  return { user, repo, comment, pull, commit, app, checkRun, association };
}
