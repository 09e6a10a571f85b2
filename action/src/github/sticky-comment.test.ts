// The sticky comment against an in-memory GitHub (docs/threat-model.md, O3); pagination and
// the HTTP details are covered against the OpenAPI-validating local server.
import { describe, expect, it } from "vitest";
import { BOT, fakeGitHub } from "../../test/support/fake-github.ts";
import { GATE_MARKER, upsertSticky } from "./sticky-comment.ts";

const body = (text: string): string => `${GATE_MARKER}\n${text}`;
const mallory = { id: 666, login: "mallory", type: "User" };

describe("upsertSticky", () => {
  it("creates the comment once, then updates the same one (O3)", async () => {
    const gh = fakeGitHub();
    const first = await upsertSticky(gh, 7, body("v1"), BOT.id);
    const second = await upsertSticky(gh, 7, body("v2"), BOT.id);
    const third = await upsertSticky(gh, 7, body("v2"), BOT.id);
    expect(first.action).toBe("created");
    expect(second).toEqual({ action: "updated", commentId: first.commentId });
    expect(third.action).toBe("unchanged");
    expect(gh.comments).toHaveLength(1);
  });

  it("never edits someone else's comment that carries the marker (O3)", async () => {
    const gh = fakeGitHub();
    gh.comments.push({ id: 1, body: body("attacker"), author: mallory, createdAt: "" });
    const result = await upsertSticky(gh, 7, body("real"), BOT.id);
    expect(result.action).toBe("created");
    expect(gh.comments.find((c) => c.id === 1)?.body).toBe(body("attacker"));
    expect(gh.writes).not.toContain("update 1");
  });

  it("with two marked bot comments, the oldest survives deterministically (O3)", async () => {
    const gh = fakeGitHub();
    gh.comments.push({ id: 20, body: body("b"), author: BOT, createdAt: "" });
    gh.comments.push({ id: 10, body: body("a"), author: BOT, createdAt: "" });
    expect(await upsertSticky(gh, 7, body("new"), BOT.id)).toEqual({
      action: "updated",
      commentId: 10,
    });
  });

  it("a 502 on create whose comment was stored anyway leaves one comment (O3)", async () => {
    const gh = fakeGitHub();
    gh.failNextCreate = { status: 502, stored: true };
    const result = await upsertSticky(gh, 7, body("v1"), BOT.id);
    expect(result.action).toBe("unchanged");
    expect(gh.comments).toHaveLength(1);
  });

  it("a 502 on create that stored nothing is retried once", async () => {
    const gh = fakeGitHub();
    gh.failNextCreate = { status: 502, stored: false };
    expect((await upsertSticky(gh, 7, body("v1"), BOT.id)).action).toBe("created");
    expect(gh.comments).toHaveLength(1);
  });

  it("a 403 (read-only token) is not retried: the caller reports it", async () => {
    const gh = fakeGitHub();
    gh.failNextCreate = { status: 403, stored: false };
    await expect(upsertSticky(gh, 7, body("v1"), BOT.id)).rejects.toThrow();
    expect(gh.comments).toHaveLength(0);
  });
});
