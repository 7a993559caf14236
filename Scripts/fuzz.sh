#!/usr/bin/env bash
# Fuzzes the generator's pipeline with libFuzzer under AddressSanitizer: the spec front end
# (SpecLoader.load: YAML reader, decoder, checks) and, for every input that loads, the Swift
# generation (GeneratorPipeline: render context and Mustache templates). The generator runs inside
# every user's build, so no input may crash, hang, leak or exhaust memory.
#
#   bash Scripts/fuzz.sh [SECONDS]     fuzz for SECONDS (default 60); non-zero exit on a finding
#   bash Scripts/fuzz.sh FILE...       replay saved inputs (a crash artifact, a corpus file) once
#
# Why a hand-made swiftc build instead of `swift build -Xswiftc -sanitize=fuzzer`: libFuzzer brings
# its own `main`, and SwiftPM links every executable target with the Swift `main` it generates, so
# the fuzzer would need a special target in Package.swift (which users would then see and build).
# Compiling Mustache (from SwiftPM's checkout), StateLoopSpec and StateLoopCodegen as modules and
# linking them with the entry point (Fuzz/GeneratorFuzzer.swift, `-parse-as-library`) needs no
# package change and gives one instrumented binary. libyaml itself is the system library and is
# not instrumented: coverage guides through our Swift code and Mustache, and ASan still checks
# every access our code makes to libyaml's memory.
#
# Layout (all under .build-fuzz/, gitignored): spec-fuzzer (the binary), obj/ (modules, objects),
# corpus/ (kept between runs, seeded from Specs/ and every test fixture), artifacts/ (crash-*,
# leak-*, timeout-*, oom-* inputs), fuzz.log. Each finding becomes a regression test in
# Tests/StateLoopSpecTests/FuzzRegressionTests.swift (or the codegen tests, for a codegen finding).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/deps.sh

out=.build-fuzz
binary=$out/spec-fuzzer
mkdir -p "$out/corpus" "$out/artifacts"

# Mustache's sources come from SwiftPM's checkout (resolved from the package's own pins).
swift package resolve >/dev/null
mustache=.build/checkouts/swift-mustache/Sources/Mustache
[ -d "$mustache" ] || { echo "error: $mustache not found after 'swift package resolve'" >&2; exit 2; }

sources_of() { find "$@" -name '*.swift' | sort; }
inputs=("$mustache" Sources/StateLoopSpec Sources/StateLoopCodegen Sources/CYAML Fuzz Scripts/fuzz.sh)

# Rebuild only when an input is newer than the binary: the build takes a while on a shared machine.
if [ ! -x "$binary" ] || [ -n "$(find "${inputs[@]}" -newer "$binary" | head -n 1)" ]; then
    echo "== building $binary"
    root=$PWD
    obj=$root/$out/obj
    mkdir -p "$obj"
    # `-package-name`: our modules share `package` declarations, as SwiftPM builds them.
    flags=(-sanitize=fuzzer,address -parse-as-library -O -g -wmo -package-name stateloop -I "$obj" -I "$root/Sources/CYAML")
    # One module at a time, in dependency order; run inside obj/ because the compiler leaves
    # debug-info module files in the working directory.
    module() {
        local name=$1 files
        shift
        files=$(sources_of "$@" | sed "s|^|$root/|")
        # shellcheck disable=SC2086  # one path per word; the paths have no spaces
        (cd "$obj" && swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$obj/$name.swiftmodule" \
            -c $files -o "$obj/$name.o")
    }
    module Mustache "$mustache"
    module StateLoopSpec Sources/StateLoopSpec
    module StateLoopCodegen Sources/StateLoopCodegen
    # Linked with lld: gold warns about every ASan runtime symbol it cannot export.
    # shellcheck disable=SC2046  # pkg-config prints several flags on purpose
    (cd "$obj" && swiftc "${flags[@]}" -use-ld=lld -module-name GeneratorFuzzer "$root/Fuzz/GeneratorFuzzer.swift" \
        Mustache.o StateLoopSpec.o StateLoopCodegen.o $(pkg-config --libs-only-L yaml-0.1) -lyaml -o "$root/$binary")
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
