#!/bin/bash -eu
# ClusterFuzzLite build: one binary per mutfuzz target in $OUT, each taking libFuzzer's
# command line (corpus directories, -runs=, -max_total_time=, -artifact_prefix=, -seed=,
# -merge=1), with its mutant catalog beside it, and the committed corpus as seeds.
#
# The targets of your harness (mutfuzz/src/main.rs, `mutfuzz::targets!(…)`):
TARGETS="sort sort_generic"

# mutfuzz adds its own edge coverage (SanitizerCoverage, through its rustc wrapper) and
# builds the schema optimized with overflow checks; the image's sanitizer flags are for
# C/C++ and nightly Rust, and would change the build mutfuzz's viability cache is keyed on.
unset RUSTFLAGS CARGO_BUILD_TARGET

cd "$SRC/project"
cargo mutfuzz build $TARGETS --out "$OUT"
for t in $TARGETS; do
  # ClusterFuzz takes `*_fuzzer` files for fuzz targets; the harness finds its target
  # from its name (`<target>_fuzzer`) and its catalog as `<binary>.mutants.json`.
  mv "$OUT/$t" "$OUT/${t}_fuzzer"
  mv "$OUT/$t.mutants.json" "$OUT/${t}_fuzzer.mutants.json"
  if [ -d "mutfuzz/corpus/$t" ]; then
    (cd "mutfuzz/corpus/$t" && zip -q -r "$OUT/${t}_fuzzer_seed_corpus.zip" .)
  fi
done
