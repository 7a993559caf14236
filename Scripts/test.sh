#!/usr/bin/env bash
# The whole test suite: reader, checks, generator goldens (compiled and run), diagrams through real
# Graphviz, the runtime (also under ThreadSanitizer), the examples, and end-to-end `swift build`s
# of fixture packages that apply the build-tool plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/deps.sh

echo "== swift test"
swift build --build-tests
swift test --skip-build --parallel

echo "== runtime under ThreadSanitizer"
swift test --sanitize=thread --scratch-path .build-tsan --filter StateLoopTests
