// Publishing a verdict with acceptances (docs/threat-model.md, C7), end to end against the
// in-memory GitHub: the gate's check names its regressions, the bot accepts exactly those, and a
// later run of the same commit passes only while its failures are among them.
import { describe, expect, it } from "vitest";
import { BOT, fakeGitHub, openPull, type FakeGitHub } from "../../test/support/fake-github.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { authorize } from "../bot/authorize.ts";
import {
  ACCEPTANCE_COMMENT_MARKER,
  MAX_ACCEPTED_IDS,
  readResultMarker,
  writeAcceptance,
} from "../github/acceptance.ts";
import type { StepIO } from "../ports/step-io.ts";
import { GATE_MARKER } from "../github/sticky-comment.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { publishVerdict, type PublishContext } from "./publish.ts";

const HEAD = "a".repeat(40);
const BASE = "b".repeat(40);

function setup(): FakeGitHub {
  const gh = fakeGitHub();
  gh.permissions.set("maya", "maintain");
  gh.pulls.set(7, openPull(BASE, HEAD));
  return gh;
}

const quietIO: StepIO = {
  input: () => "",
  setOutput: () => {},
  summary: async () => {},
  annotate: () => {},
  info: () => {},
  warning: () => {},
  fail: () => {},
};

function failing(regressed: readonly string[], extra: Partial<BenchReport> = {}): BenchReport {
  const benchmarks = [
    ...regressed.map((id) => makeEntry({ id, change: 0.2, verdict: "regressed" })),
    makeEntry({ id: "steady", change: 0 }),
  ];
  return makeReport({ benchmarks, verdict: "fail", reasons: ["regressed"], ...extra });
}

/** A gate run of HEAD for PR 7: its new check run, completed, and the warnings it gave. */
async function gateRun(gh: FakeGitHub, report: BenchReport) {
  const warnings: string[] = [];
  const ctx: PublishContext = {
    settings: { botUserId: BOT.id },
    github: gh,
    io: { ...quietIO, warning: (text) => void warnings.push(text) },
    target: { baseSha: BASE, headSha: HEAD, prNumber: 7 },
  };
  const before = gh.checks.length;
  const outcome = await publishVerdict(
    ctx,
    { report, comment: { marker: GATE_MARKER }, reportFile: "r" },
    undefined,
  );
  const [check] = gh.checks.slice(before);
  return { outcome, check, warnings };
}

/** The gate's sticky comment, updated in place by every run. */
function sticky(gh: FakeGitHub): string {
  return gh.comments.find((c) => c.body.startsWith(GATE_MARKER))?.body ?? "";
}

async function accept(gh: FakeGitHub): Promise<string> {
  const result = await authorize(
    {
      kind: "comment",
      action: "created",
      isPullRequest: true,
      issueNumber: 7,
      commentId: 55,
      body: `/benchgate accept ${HEAD} known cost`,
      author: { id: 100, login: "maya", type: "User" },
    },
    gh,
    { botUserId: BOT.id, log: () => {} },
  );
  return result.why;
}

describe("publishVerdict and acceptances (C7)", () => {
  it("opens its check's text with the result marker: the regressions and the other failures", async () => {
    const gh = setup();
    const broken = { benchmark: "parse", rule: "median < 1ms", statistic: "median", ok: false };
    const { check } = await gateRun(gh, failing(["parse/<!--", "lex"], { budgets: [broken] }));
    expect(check?.conclusion).toBe("failure");
    expect(check?.text).toMatch(
      /^<!-- benchgate:result sha=a{40} .* -->\n<!-- benchgate:gate -->\n## ❌ /u,
    );
    expect(readResultMarker(check?.text ?? null, HEAD)).toEqual({
      sha: HEAD,
      regressions: { kind: "listed", ids: ["parse/<!--", "lex"] },
      other: ["budgets"],
    });
  });

  it("keeps the whole comment in the check's text: the marker does not push its end past the cut", async () => {
    const gh = setup();
    // Enough failing benchmarks that the comment is cut to its own limit, with its closing note.
    const many = Array.from({ length: 1500 }, (_, i) => `suite/benchmark-number-${String(i)}`);
    const { check } = await gateRun(gh, failing(many));
    const comment = sticky(gh);
    expect(comment.length).toBeGreaterThan(60_000);
    expect(check?.text?.endsWith(comment)).toBe(true);
  });

  it("writes the reasons in the check's summary as the comment does: from +1,000 % on a ratio", async () => {
    const gh = setup();
    const reasons = [
      "suite micro: a suite-wide regression of +2500.0 % (CI +1900.0 % to +3100.0 %)",
    ];
    const { check } = await gateRun(gh, failing(["parse"], { reasons }));
    expect((check?.output as { summary: string }).summary).toBe(
      "suite micro: a suite-wide regression of ×26 (CI ×20 to ×32)",
    );
  });

  it("honours an acceptance for the same regressions, and for fewer", async () => {
    const gh = setup();
    expect((await gateRun(gh, failing(["parse", "lex"]))).outcome.failed).toBe(true);
    expect(await accept(gh)).toMatch(/^maya accepted 2 regressions of a{12}/);
    const again = await gateRun(gh, failing(["lex", "parse"]));
    expect(again.outcome).toEqual({ verdict: "fail", failed: false });
    expect([again.check?.conclusion, (again.check?.output as { title: string }).title]).toEqual([
      "success",
      "fail (accepted)",
    ]);
    expect(sticky(gh)).toContain("Accepted regressions: parse, lex");
    expect((await gateRun(gh, failing(["parse"]))).outcome.failed).toBe(false);
  });

  it("does NOT honour it when a later run of the same SHA has another or an additional regression", async () => {
    const gh = setup();
    await gateRun(gh, failing(["parse"]));
    expect(await accept(gh)).toMatch(/^maya accepted 1 regression of a{12}/);
    for (const regressed of [["lex"], ["parse", "lex"]]) {
      const later = await gateRun(gh, failing(regressed));
      expect(later.outcome, regressed.join()).toEqual({ verdict: "fail", failed: true });
      expect(later.check?.conclusion).toBe("failure");
      expect((later.check?.output as { title: string }).title).toBe("fail");
    }
  });

  it("does NOT honour it when the same regression comes with a failure of another kind", async () => {
    const gh = setup();
    await gateRun(gh, failing(["parse"]));
    await accept(gh);
    const golden = [{ name: "cli-help", ok: false, expected: "x", actual: "y" }];
    const later = await gateRun(gh, failing(["parse"], { golden }));
    expect(later.outcome.failed).toBe(true);
    expect(later.check?.conclusion).toBe("failure");
  });

  /** The lines of the last comment from the one after the "why" list to the next blank line's end. */
  function underWhy(gh: FakeGitHub): string {
    const lines = sticky(gh).split("\n");
    const why = lines.indexOf("**Why:**");
    const rest = lines.slice(why + 1);
    const from = rest.findIndex((l) => !l.startsWith("- ") && l.trim() !== "");
    expect(why).toBeGreaterThan(0);
    return rest.slice(from, from + 3).join("\n");
  }

  it("tells a maintainer how to accept a failure of regressions only, right under the why, and not otherwise", async () => {
    const gh = setup();
    await gateRun(gh, failing(["parse", "lex"]));
    expect(underWhy(gh)).toBe(
      `If these 2 regressions are intended, a maintainer can accept them for this commit by commenting \`/benchgate accept ${HEAD} <reason>\`; a later push needs a new acceptance.\n\nTo measure again: \`/rebench ${HEAD}\` (while it is the head of this pull request).`,
    );
    const golden = [{ name: "cli-help", ok: false, expected: "x", actual: "y" }];
    await gateRun(gh, failing(["parse"], { golden }));
    expect(sticky(gh)).not.toContain("/benchgate accept");
    expect(underWhy(gh)).toMatch(/^To measure again: `\/rebench a{40}`/u);
    await gateRun(gh, failing(["parse"]));
    await accept(gh);
    await gateRun(gh, failing(["parse"]));
    expect(underWhy(gh)).toBe(
      `**Accepted:** @maya accepted this result for \`${HEAD.slice(0, 12)}\`: known cost\nAccepted regressions: parse\n`,
    );
    expect(sticky(gh)).toMatch(/^<!-- benchgate:gate -->\n## ☑️ benchgate: fail, accepted/u);
    expect(sticky(gh)).not.toContain("a maintainer can accept");
    expect(sticky(gh)).not.toContain("/rebench");
  });

  it("offers no acceptance beyond the ids one record holds", async () => {
    const gh = setup();
    const many = Array.from({ length: MAX_ACCEPTED_IDS + 1 }, (_, i) => `b${i}`);
    await gateRun(gh, failing(many));
    expect(sticky(gh)).not.toContain("/benchgate accept");
    expect(underWhy(gh)).toMatch(/^To measure again: `\/rebench a{40}`/u);
  });

  it("shows no commands without a pull request, and the same comment in the summary and the output", async () => {
    const gh = setup();
    let summary = "";
    const outputs = new Map<string, string>();
    const io: StepIO = {
      ...quietIO,
      summary: (text) => {
        summary = text;
        return Promise.resolve();
      },
      setOutput: (name, value) => void outputs.set(name, value),
    };
    const target = { baseSha: BASE, headSha: HEAD };
    const ctx: PublishContext = { settings: { botUserId: BOT.id }, github: gh, io, target };
    await publishVerdict(ctx, { report: failing(["parse"]), comment: {}, reportFile: "r" }, 1);
    expect(summary).toContain("**Why:**");
    expect(summary).not.toMatch(/\/rebench|\/benchgate accept/u);
    expect(outputs.get("markdown")).toBe(summary);
    expect(gh.comments).toEqual([]);
  });

  /** The bot's record comment and the passing check that backs it, after a genuine accept. */
  function genuine(gh: FakeGitHub) {
    const record = gh.comments.find((c) => c.body.startsWith(ACCEPTANCE_COMMENT_MARKER));
    const check = gh.checks.find((c) => c.conclusion === "success");
    if (record === undefined || check === undefined) throw new Error("no genuine acceptance");
    return { record, check };
  }

  it.each([
    [
      "a record inside a code fence",
      (gh: FakeGitHub) => {
        const { record } = genuine(gh);
        Object.assign(record, { body: `\`\`\`\n${record.body}\n\`\`\`` });
      },
    ],
    [
      "a record in a comment without the acceptance comment marker",
      (gh: FakeGitHub) => {
        const { record } = genuine(gh);
        Object.assign(record, { body: record.body.replace(`${ACCEPTANCE_COMMENT_MARKER}\n`, "") });
      },
    ],
    [
      "a record by another user",
      (gh: FakeGitHub) => {
        const { record } = genuine(gh);
        Object.assign(record, { author: { id: 999, login: "mallory", type: "User" } });
      },
    ],
    [
      "a record whose passing check run is missing",
      (gh: FakeGitHub) => {
        gh.checks.splice(gh.checks.indexOf(genuine(gh).check), 1);
      },
    ],
    [
      "a record whose check run lists other ids",
      (gh: FakeGitHub) => {
        const { record, check } = genuine(gh);
        const a = { sha: HEAD, userId: 100, login: "maya", ids: ["lex"], reason: "r" };
        const other = writeAcceptance(a, { reason: "r", ids: "lex" })?.checkMarker(record.id);
        Object.assign(check, { text: (check.text ?? "").replace(/^.*\n/, `${other ?? ""}\n`) });
      },
    ],
    [
      "a record whose checks cannot be listed (fail closed)",
      (gh: FakeGitHub) => {
        gh.listChecksError = new Error("502 Bad Gateway");
      },
    ],
  ])("ignores %s: the gate still fails", async (_label, tamper) => {
    const gh = setup();
    await gateRun(gh, failing(["parse"]));
    expect(await accept(gh)).toMatch(/^maya accepted 1 regression of a{12}/);
    tamper(gh);
    const later = await gateRun(gh, failing(["parse"]));
    expect(later.outcome).toEqual({ verdict: "fail", failed: true });
    expect([later.check?.conclusion, (later.check?.output as { title: string }).title]).toEqual([
      "failure",
      "fail",
    ]);
    expect(sticky(gh)).not.toContain("Accepted regressions");
  });

  it("warns naming the record comment it set aside when no check of benchgate's backs it", async () => {
    const gh = setup();
    await gateRun(gh, failing(["parse"]));
    await accept(gh);
    const { record, check } = genuine(gh);
    gh.checks.splice(gh.checks.indexOf(check), 1);
    const later = await gateRun(gh, failing(["parse"]));
    expect(later.warnings).toEqual([
      `ignored 1 acceptance record(s) of ${HEAD.slice(0, 12)} (comment ${record.id}): no passing benchgate check of the bot's app backs them with the same ids`,
    ]);
  });
});
