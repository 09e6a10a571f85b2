// The third-party actions benchgate's workflows use, each pinned to a full commit SHA: a tag can
// be moved to other code after review, a commit cannot (docs/threat-model.md, W5). The
// release each SHA belongs to is kept beside it as the `# vX.Y.Z` comment that Dependabot and
// Renovate update together with the SHA (dtolnay/rust-toolchain makes no releases: its pin is
// the head of its `stable` branch, named so). docs/workflows.md says where each SHA was checked.

export const PINNED_ACTIONS = {
  checkout: {
    action: "actions/checkout",
    sha: "9c091bb21b7c1c1d1991bb908d89e4e9dddfe3e0",
    version: "v7.0.0",
  },
  setupNode: {
    action: "actions/setup-node",
    sha: "48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e",
    version: "v6.4.0",
  },
  downloadArtifact: {
    action: "actions/download-artifact",
    sha: "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c",
    version: "v8.0.1",
  },
  uploadArtifact: {
    action: "actions/upload-artifact",
    sha: "043fb46d1a93c77aae656e7c1c64a875d1fc6a0a",
    version: "v7.0.1",
  },
  rustToolchain: {
    action: "dtolnay/rust-toolchain",
    sha: "29eef336d9b2848a0b548edc03f92a220660cdb8",
    version: "stable",
  },
  rustCache: {
    action: "Swatinem/rust-cache",
    sha: "6323deb102c322ba6fcbdcafc7e3dddab59af2b6",
    version: "v2.9.2",
  },
} as const;

type PinnedAction = keyof typeof PINNED_ACTIONS;

/** The `uses:` value with its version comment, e.g. `actions/checkout@9c09… # v7.0.0`. */
export function pinnedUses(name: PinnedAction): string {
  const pin = PINNED_ACTIONS[name];
  return `${pin.action}@${pin.sha} # ${pin.version}`;
}
