#!/usr/bin/env bash
# Benchmarks, built in release mode: prints `BENCH <name> <value>` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
# The instruction-count figures (generator.over_libyaml, scaling.generate) run valgrind's callgrind;
# the inspector's page figures (inspector.page.) headless Chromium and chromedriver, which deps.sh
# installs too, and the release build of stateloop-inspect, which they build first.
if [ "$(uname)" = Linux ]; then bash Scripts/deps.sh valgrind; else bash Scripts/deps.sh; fi
swift run -c release --package-path Benchmarks stateloop-bench "$@"
