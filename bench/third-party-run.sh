#!/usr/bin/env bash
# benchgate run on a real third-party crate, unchanged: the published sources of two releases
# from crates.io become two commits of a throw-away git repository (base = the older release,
# head = the newer), and `benchgate run` compares them with a config kept OUTSIDE the repository.
#
#   bench/third-party-run.sh CRATE BASE_VERSION HEAD_VERSION CONFIG [OUT] [-- extra run args]
#   e.g. bench/third-party-run.sh bs58 0.5.0 0.5.1 bench/third-party/bs58.yml
#
# Published crates ship no Cargo.lock; if bench/data/*-CRATE-HEAD_VERSION/Cargo.lock was
# recorded (scripts/record-aa.sh), it is committed with both releases so the build is the one we
# measured before, like a repository that commits its lock file.
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n 2,11p "$0" >&2; exit 2; }
CRATE=$1 BASE_V=$2 HEAD_V=$3 CONFIG=$(realpath "$4")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${5:-$ROOT/.benchgate/third-party/$CRATE-$BASE_V-$HEAD_V}
shift $(( $# >= 5 ? 5 : 4 ))
[[ ${1:-} == -- ]] && shift
export PATH="$HOME/.cargo/bin:$PATH"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/benchgate-third-party.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
log() { printf 'third-party [%s] %s\n' "$(date +%T)" "$*" >&2; }

fetch() { # version -> prints the registry source dir
  local v=$1
  cargo new --lib --vcs none --quiet --name fetch "$WORK/fetch-$v"
  (cd "$WORK/fetch-$v" && cargo add --quiet "$CRATE@=$v" && cargo fetch --quiet)
  ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$CRATE-$v" | head -n1
}

REPO=$WORK/repo
mkdir -p "$REPO"
git -C "$REPO" init --quiet --initial-branch=main
LOCK=$(ls "$ROOT"/bench/data/*-"$CRATE-$HEAD_V"/Cargo.lock 2>/dev/null | head -n1 || true)
commit() { # version
  local src
  src=$(fetch "$1")
  find "$REPO" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -r "$src"/. "$REPO"/
  chmod -R u+w "$REPO"
  [[ -n "$LOCK" ]] && cp "$LOCK" "$REPO/Cargo.lock"
  git -C "$REPO" add --all
  git -C "$REPO" -c user.name=benchgate -c user.email=bench@benchgate.invalid \
    commit --quiet --no-gpg-sign -m "$CRATE $1 (published source)"
  git -C "$REPO" tag "v$1"
}
log "fetching $CRATE $BASE_V and $HEAD_V from crates.io into $REPO"
commit "$BASE_V"
commit "$HEAD_V"
log "benchgate run --base v$BASE_V --head v$HEAD_V --config $CONFIG"
start=$(date +%s.%N)
set +e
"$ROOT/node_modules/.bin/node" "$ROOT/action/src/cli/index.ts" run --repo "$REPO" \
  --base "v$BASE_V" --head "v$HEAD_V" --config "$CONFIG" --out "$OUT" "$@"
status=$?
set -e
log "exit $status after $(echo "$(date +%s.%N) - $start" | bc) s; output in $OUT"
exit $status
