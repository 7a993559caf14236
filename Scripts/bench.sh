#!/usr/bin/env bash
# Benchmarks, built in release mode: prints `BENCH <name> <value>` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/deps.sh
swift run -c release --package-path Benchmarks stateloop-bench "$@"
