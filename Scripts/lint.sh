#!/usr/bin/env bash
# swift format lint with the rules of .swift-format, every finding an error. The layout (indentation,
# line breaks, line length) is left to the code: the code is laid out by hand, and the pretty
# printer's findings would ask for a reformat of every file (7,600 findings at 4 spaces and 140
# columns), so the lint runs the rules alone (--debug-disable-pretty-print). Generated Swift (the
# goldens of Tests/GeneratedCodeTests/Generated and the benchmarks' Generated/) is the generator's
# to lay out, and is not linted.
set -euo pipefail
cd "$(dirname "$0")/.."
find Sources Plugins Tests Benchmarks/Sources Package.swift Benchmarks/Package.swift -name '*.swift' \
    -not -path '*/Generated/*' -not -path '*/.build/*' -print0 |
    xargs -0 swift format lint --strict --parallel --debug-disable-pretty-print
