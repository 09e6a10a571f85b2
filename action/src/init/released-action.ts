// Which release of the action this build of benchgate belongs to, for `benchgate init`'s default
// --action-ref. In the repository it is `undefined`: a build from source does not know the
// commit its release will have. scripts/release.ts rewrites this file in the npm package's
// build only (never in the repository), after it has made the release commit, so the published
// CLI writes that commit's SHA. The release commit itself cannot name its own SHA, so the
// bundles committed in it keep `undefined` too.

interface ReleasedAction {
  /** `owner/repo/path` of the action, without the ref. */
  readonly action: string;
  /** The release commit: 40 hex digits. */
  readonly sha: string;
  /** The release tag that points at that commit, e.g. v0.1.0. */
  readonly tag: string;
}

export const RELEASED_ACTION: ReleasedAction | undefined = undefined;
