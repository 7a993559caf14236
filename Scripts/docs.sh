#!/usr/bin/env bash
# Builds the DocC catalog of each documented product (Sources/<Target>/<Target>.docc, the targets
# .spi.yml names) with the toolchain's docc, and fails on any error or warning: a link to a symbol
# that is gone or ambiguous fails the run. The catalogs' articles are the guides of Docs/, linked
# in (Docs/ is their one home; tests read them there). The symbol graphs are read off the modules
# of the build already made (`swift build`, with the arguments given here, e.g. --traits), so
# nothing is compiled again (-I Sources/CSQLite: the module map StateLoopDurable imports).
# --disable-parameters-and-returns-validation: a doc comment that names some of a function's
# parameters is not an error (the runtime's say what needs saying, not every name).
# STATELOOP_DOCS_OUTPUT: where the .doccarchive folders go; a temporary folder by default.
set -euo pipefail
cd "$(dirname "$0")/.."
modules="$(swift build --show-bin-path "$@")/Modules"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -1)
docc=$(command -v docc || echo "xcrun docc")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output=${STATELOOP_DOCS_OUTPUT:-$work}
status=0
for target in StateLoop StateLoopTesting StateLoopDurable; do
    mkdir -p "$work/graphs/$target" "$output"
    swift symbolgraph-extract -module-name "$target" -target "$triple" -I "$modules" -I Sources/CSQLite \
        -minimum-access-level public -output-dir "$work/graphs/$target"
    $docc convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$work/graphs/$target" \
        --output-path "$output/$target.doccarchive" --fallback-display-name "$target" \
        --fallback-bundle-identifier "$target" --disable-parameters-and-returns-validation \
        > "$work/$target.log" 2>&1 || { cat "$work/$target.log"; status=1; continue; }
    if grep -E "^warning: " "$work/$target.log" >/dev/null; then
        cat "$work/$target.log"
        echo "error: docc warned on $target's catalog (above)" >&2
        status=1
    else
        echo "$target: no warnings"
    fi
done
exit $status
