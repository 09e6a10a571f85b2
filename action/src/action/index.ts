// The action's bundle entry (dist/benchgate-action.js): wiring only.
import { nodeDeps } from "../cli/node-deps.ts";
import { nodeSystem } from "../io/node-system.ts";
import { actionsIO } from "../io/actions-io.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { octokitGitHub } from "../io/octokit-github.ts";
import { runAction } from "./main.ts";

await runAction({
  io: actionsIO,
  env: process.env,
  reader: nodeFileReader,
  github: (config) =>
    octokitGitHub({
      token: config.token,
      owner: config.github.owner,
      repo: config.github.repo,
      baseUrl: config.github.apiUrl,
      log: actionsIO.warning,
    }),
  cli: {
    ...nodeDeps,
    // cargo, build scripts and benchmarks run the PR's code: they get no token.
    system: nodeSystem({ scrubCredentials: true }),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stdout.write(text),
  },
});
