// The action's bundle entry (dist/benchgate-action.js): wiring only.
import { actionsStepIO } from "../io/actions-step-io.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { nodeMachine } from "../io/node-machine.ts";
import { octokitGitHub } from "../io/octokit-github.ts";
import { runAction } from "./main.ts";

await runAction({
  io: actionsStepIO,
  env: process.env,
  reader: nodeFileReader,
  github: (config) =>
    octokitGitHub({
      token: config.token,
      owner: config.github.owner,
      repo: config.github.repo,
      baseUrl: config.github.apiUrl,
      log: actionsStepIO.warning,
    }),
  // cargo, build scripts and benchmarks run the PR's code: they get no token. Progress goes to
  // the step's log (standard output) like everything else the action prints.
  machine: nodeMachine({
    scrubCredentials: true,
    err: (text) => process.stdout.write(text),
  }),
});
