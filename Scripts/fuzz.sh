#!/usr/bin/env bash
# Fuzzes the spec front end (SpecLoader.load: YAML reader, decoder, checks) with libFuzzer under
# AddressSanitizer. The generator runs inside every user's build, so no input may crash, hang,
# leak or exhaust memory.
#
#   bash Scripts/fuzz.sh [SECONDS]     fuzz for SECONDS (default 60); non-zero exit on a finding
#   bash Scripts/fuzz.sh FILE...       replay saved inputs (a crash artifact, a corpus file) once
#
# Why a hand-made swiftc build instead of `swift build -Xswiftc -sanitize=fuzzer`: libFuzzer brings
# its own `main`, and SwiftPM links every executable target with the Swift `main` it generates, so
# the fuzzer would need a special target in Package.swift (which users would then see and build).
# Compiling the front end's sources and the entry point (Fuzz/SpecFrontEndFuzzer.swift) into one
# module with `-parse-as-library` needs no package change and gives one instrumented binary. libyaml
# itself is the system library and is not instrumented: coverage guides through our Swift code, and
# ASan still checks every access our code makes to libyaml's memory.
#
# Layout (all under .build-fuzz/, gitignored): spec-fuzzer (the binary), corpus/ (kept between runs,
# seeded from Specs/ and every test fixture), artifacts/ (crash-*, leak-*, timeout-*, oom-* inputs),
# fuzz.log. Each finding becomes a test in Tests/StateLoopSpecTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/deps.sh

out=.build-fuzz
binary=$out/spec-fuzzer
mkdir -p "$out/corpus" "$out/artifacts"

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/StateLoopSpec -name '*.swift' | sort)
sources+=(Fuzz/SpecFrontEndFuzzer.swift)

# Rebuild only when a source is newer than the binary: the build takes a while on a shared machine.
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" Sources/CYAML Scripts/fuzz.sh -newer "$binary" | head -n 1)" ]; then
    echo "== building $binary"
    # shellcheck disable=SC2046  # pkg-config prints several flags on purpose
    swiftc -sanitize=fuzzer,address -parse-as-library -module-name StateLoopSpecFuzz \
        -O -g -wmo -I Sources/CYAML $(pkg-config --libs-only-L yaml-0.1) -lyaml \
        "${sources[@]}" -o "$binary"
fi

# Replay mode: run saved inputs once (libFuzzer runs file arguments instead of fuzzing).
if [ $# -gt 0 ] && [ -f "$1" ]; then
    exec "$binary" -rss_limit_mb=2048 -timeout=10 "$@"
fi

seconds=${1:-60}
case $seconds in
    '' | *[!0-9]*) echo "usage: $0 [SECONDS] | $0 FILE..." >&2; exit 2 ;;
esac

# Seeds: every example and fixture spec, valid and invalid (copied, so the corpus dir owns them).
while IFS= read -r seed; do
    cp "$seed" "$out/corpus/seed-$(echo "$seed" | tr '/' '_')"
done < <(find Specs Tests -path '*/.build*' -prune -o -name '*.machine.yml' -print)

echo "== fuzzing for ${seconds}s (corpus: $out/corpus, findings: $out/artifacts/)"
status=0
"$binary" "$out/corpus" \
    -dict=Fuzz/spec.dict \
    -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" \
    2>&1 | tee "$out/fuzz.log" || status=$?

echo "== corpus: $(find "$out/corpus" -type f | wc -l) inputs"
if [ "$status" -ne 0 ]; then
    echo "error: the fuzzer found a problem (exit $status); input saved in $out/artifacts/, replay with: bash Scripts/fuzz.sh <artifact>" >&2
fi
exit "$status"
