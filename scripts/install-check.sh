#!/usr/bin/env bash
# The path a user takes once mutfuzz is published, without publishing it:
#
#  1. package every crate of the workspace (`cargo package --workspace --no-verify`; the
#     packaged sources are built in step 3, which is the verification that matters);
#  2. make a registry on the spot in a temp dir: a directory source holding the packaged
#     crates beside the third-party crates they need (`cargo vendor` of the workspace's
#     Cargo.lock), which replaces crates.io; nothing is fetched after this step;
#  3. `cargo install cargo-mutfuzz --locked` from it into a fresh CARGO_HOME;
#  4. in a crate outside the repository (a copy of examples/insertion-sort): the README's
#     quick start (`fuzz sort`, `score sort`), then a harness made by `init --auto`, fuzzed
#     with `fuzz --all` and scored with `score --all`; then, with plain cargo, the
#     generated harness (`mutfuzz = "0.1.0"`) built and the test `export --replay` wrote
#     (an ordinary `mutfuzz` dev-dependency) run: both resolve `mutfuzz` from the registry.
#
# Usage: scripts/install-check.sh
# Environment:
#   INSTALL_PROFILE=release|debug  how `cargo install` builds the CLI (default: debug, the
#                                  faster of the two overall, see book/src/install.md)
#   INSTALL_TARGET_DIR=DIR         target dir of `cargo install` (default: a fresh one in
#                                  the temp dir; CI passes the workspace's to reuse the
#                                  dependencies `cargo test` built)
#   KEEP=1                         keep the temp dir (its path is printed)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
profile="${INSTALL_PROFILE:-debug}"
case "$profile" in
  release) install_flags=() ;;
  debug) install_flags=(--debug) ;;
  *) echo "error: INSTALL_PROFILE must be release or debug, not '$profile'" >&2; exit 2 ;;
esac

work="$(mktemp -d "${TMPDIR:-/tmp}/mutfuzz-install-check.XXXXXX")"
cleanup() {
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

start=$SECONDS
step_start=$SECONDS
step() {
  echo "== [$((SECONDS - start)) s] $*"
  step_start=$SECONDS
}
done_step() { echo "   ($((SECONDS - step_start)) s)"; }
fail() {
  echo "install-check: $*" >&2
  exit 1
}
# Run a command, keep its output in a log, and show the log if it fails.
logged() {
  local log="$1"
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "failed: $*"
  fi
}

# The toolchain's own cargo, not rustup's proxy: the proxy must not see the fresh CARGO_HOME.
cargo_bin="$(rustup which cargo 2>/dev/null || command -v cargo)"
version="$("$cargo_bin" metadata --no-deps --format-version 1 --manifest-path "$repo/Cargo.toml" |
  grep -o '"name":"cargo-mutfuzz","version":"[^"]*"' | sed 's/.*"version":"\([^"]*\)"/\1/')"
[ -n "$version" ] || fail "cannot read cargo-mutfuzz's version from cargo metadata"

step "package the workspace (cargo-mutfuzz $version)"
# A target dir of its own: --no-verify builds nothing, and no older .crate lingers there.
logged "$work/package.log" "$cargo_bin" package --workspace --no-verify --allow-dirty \
  --manifest-path "$repo/Cargo.toml" --target-dir "$work/package-target"
crates=("$work"/package-target/package/*.crate)
[ -e "${crates[0]}" ] || fail "cargo package wrote no .crate file"
for c in "${crates[@]}"; do echo "   $(basename "$c")"; done
done_step

step "make the registry: the packaged crates and the vendored third-party crates"
registry="$work/registry"
logged "$work/vendor.log" "$cargo_bin" vendor --locked --versioned-dirs \
  --manifest-path "$repo/Cargo.toml" "$registry"
for c in "${crates[@]}"; do
  tar xzf "$c" -C "$registry"
  dir="$registry/$(basename "$c" .crate)"
  # A directory source's checksums: the .crate's (what Cargo.lock records), and each file's.
  {
    printf '{"files":{'
    (cd "$dir" && find . -type f ! -name .cargo-checksum.json | sed 's|^\./||' | LC_ALL=C sort |
      while read -r f; do printf '"%s":"%s",' "$f" "$(sha256sum "$f" | cut -d' ' -f1)"; done) | sed 's/,$//'
    printf '},"package":"%s"}' "$(sha256sum "$c" | cut -d' ' -f1)"
  } >"$dir/.cargo-checksum.json"
done
echo "   $(find "$registry" -mindepth 1 -maxdepth 1 -type d | wc -l) crates in $registry"
home="$work/cargo-home"
mkdir -p "$home"
cat >"$home/config.toml" <<EOF
[source.crates-io]
replace-with = "install-check"

[source.install-check]
directory = "$registry"

[net]
offline = true
EOF
done_step

export CARGO_HOME="$home"
export PATH="$home/bin:$PATH"
unset CARGO_TARGET_DIR RUSTC_WRAPPER CARGO_BUILD_TARGET_DIR

step "cargo install cargo-mutfuzz --locked ${install_flags[*]} (fresh CARGO_HOME, offline)"
install_target="${INSTALL_TARGET_DIR:-$work/install-target}"
(cd "$work" && logged "$work/install.log" "$cargo_bin" install cargo-mutfuzz --version "=$version" --locked \
  "${install_flags[@]}" --target-dir "$install_target")
tail -n 3 "$work/install.log" | sed 's/^/   /'
[ -x "$home/bin/cargo-mutfuzz" ] || fail "cargo install left no $home/bin/cargo-mutfuzz"
installed="$("$cargo_bin" mutfuzz --version)"
echo "   $installed"
[ "$installed" = "cargo-mutfuzz $version" ] || fail "expected cargo-mutfuzz $version, got: $installed"
done_step

crate="$work/insertion-sort"
cp -r "$repo/examples/insertion-sort" "$crate"
rm -rf "$crate/target" "$crate/mutfuzz/target" "$crate/mutfuzz/corpus"
cd "$work"

step "quick start: cargo mutfuzz fuzz sort --trials 20000; cargo mutfuzz score sort"
logged "$work/fuzz.log" "$cargo_bin" mutfuzz fuzz sort --manifest-path "$crate/Cargo.toml" --trials 20000
grep -q "^Fuzzing sort stopped" "$work/fuzz.log" || { cat "$work/fuzz.log"; fail "fuzz did not report its end"; }
logged "$work/score.log" "$cargo_bin" mutfuzz score sort --manifest-path "$crate/Cargo.toml"
grep "^score " "$work/score.log" | sed 's/^/   /'
grep -Eq "^score [0-9.]+% \([1-9][0-9]* killed" "$work/score.log" ||
  { cat "$work/score.log"; fail "score killed no mutant"; }
done_step

step "init --auto; fuzz --all; score --all"
rm -rf "$crate/mutfuzz"
logged "$work/init.log" "$cargo_bin" mutfuzz init --auto --manifest-path "$crate/Cargo.toml"
grep "^Wrote" "$work/init.log" | sed 's/^/   /'
grep -qx "mutfuzz = \"$version\"" "$crate/mutfuzz/Cargo.toml" ||
  { cat "$crate/mutfuzz/Cargo.toml"; fail "the harness does not name mutfuzz = \"$version\""; }
logged "$work/fuzz-all.log" "$cargo_bin" mutfuzz fuzz --all --trials 4000 --manifest-path "$crate/Cargo.toml"
logged "$work/score-all.log" "$cargo_bin" mutfuzz score --all --manifest-path "$crate/Cargo.toml"
grep "^score " "$work/score-all.log" | sed 's/^/   /'
grep -Eq "^score [0-9.]+% \([1-9][0-9]* killed" "$work/score-all.log" ||
  { cat "$work/score-all.log"; fail "score --all killed no mutant"; }
done_step

step "plain cargo: the harness and the exported test resolve mutfuzz $version from the registry"
# The first generated target that kept inputs.
target=""
for dir in "$crate"/mutfuzz/corpus/*/; do
  if [ -n "$(ls -A "$dir")" ]; then target="$(basename "$dir")"; break; fi
done
[ -n "$target" ] || fail "no target of the generated harness kept an input"
logged "$work/export.log" "$cargo_bin" mutfuzz export "$target" --replay --manifest-path "$crate/Cargo.toml"
grep -qx "mutfuzz = \"$version\"" "$crate/Cargo.toml" ||
  { cat "$crate/Cargo.toml"; fail "export did not add mutfuzz = \"$version\" to [dev-dependencies]"; }
[ ! -e "$crate/mutfuzz/engine" ] || fail "export vendored the engine into $crate/mutfuzz/engine"
# One target dir for both plain builds, so the second reuses the first's dependencies.
export CARGO_TARGET_DIR="$crate/target/plain"
logged "$work/test.log" "$cargo_bin" test --manifest-path "$crate/Cargo.toml" --test "mutfuzz_$target"
grep -q "^test .*_ends_as_recorded_on_every_input_of_its_corpus ... ok" "$work/test.log" ||
  { cat "$work/test.log"; fail "the exported test did not pass"; }
logged "$work/build.log" "$cargo_bin" build --manifest-path "$crate/mutfuzz/Cargo.toml"
for lock in "$crate/Cargo.lock" "$crate/mutfuzz/Cargo.lock"; do
  # A registry dependency has a source and a checksum in the lock file; a path one has neither.
  grep -A3 '^name = "mutfuzz"$' "$lock" | grep -q '^source = "registry+' ||
    fail "$lock does not take mutfuzz from the registry"
done
echo "   cargo test --test mutfuzz_$target: ok; cargo build of the harness: ok"
done_step

step "cargo mutfuzz test: the exported test, linked to the schema's engine, catches mutants"
unset CARGO_TARGET_DIR
# Exit code 2: some mutant missed (the one test does not catch them all).
set +e
"$cargo_bin" mutfuzz test --manifest-path "$crate/Cargo.toml" -- ends_as_recorded >"$work/mutation-test.log" 2>&1
code=$?
set -e
summary="$(grep -E "^[0-9]+ mutants: [0-9]+ caught" "$work/mutation-test.log" || true)"
echo "   $summary (exit code $code)"
if { [ "$code" != 0 ] && [ "$code" != 2 ]; } || ! grep -Eq ": [1-9][0-9]* caught" <<<"$summary"; then
  cat "$work/mutation-test.log" >&2
  fail "cargo mutfuzz test with the exported test caught nothing (exit code $code)"
fi
done_step

echo "== install-check passed in $((SECONDS - start)) s (INSTALL_PROFILE=$profile)"
