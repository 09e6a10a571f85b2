import { describe, expect, it } from "vitest";
import { withoutCredentials } from "./node-machine.ts";

describe("withoutCredentials", () => {
  it("keeps PATH and the GitHub context, drops inputs and runner tokens", () => {
    const kept = withoutCredentials({
      PATH: "/usr/bin",
      HOME: "/root",
      GITHUB_SHA: "abc",
      GITHUB_REPOSITORY: "o/r",
      "INPUT_GITHUB-TOKEN": "ghs_secret",
      INPUT_MODE: "gate",
      ACTIONS_RUNTIME_TOKEN: "x",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "y",
      ACTIONS_ID_TOKEN_REQUEST_URL: "z",
      ACTIONS_CACHE_URL: "u",
      ACTIONS_RESULTS_URL: "r",
      GITHUB_TOKEN: "t",
      GH_TOKEN: "g",
    });
    expect(kept).toEqual({
      PATH: "/usr/bin",
      HOME: "/root",
      GITHUB_SHA: "abc",
      GITHUB_REPOSITORY: "o/r",
    });
  });
});
