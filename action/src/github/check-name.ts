// The name of the check run benchgate opens and completes on a commit. The bot looks checks up
// by it (is a benchmark of this commit already queued?), the gate completes its check under it,
// and branch protection requires it by this name (docs/workflows.md): one constant, so the
// three cannot drift apart.
export const CHECK_NAME = "benchgate";
