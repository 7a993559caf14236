#!/usr/bin/env bash
# The main job on the example specs: check them, generate Swift and diagrams from GitHubSearch,
# then run every example machine (built through the plugin) and print its trace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/deps.sh

out=.build/demo
swift build --product stateloop
stateloop=$(swift build --show-bin-path)/stateloop

echo "== stateloop check Specs/*.machine.yml"
"$stateloop" check --verbose Specs/*.machine.yml

echo "== stateloop generate Specs/GitHubSearch.machine.yml --output $out"
"$stateloop" generate Specs/GitHubSearch.machine.yml --output "$out"
echo "wrote $out/GitHubSearch.machine.swift ($(wc -l < "$out/GitHubSearch.machine.swift") lines)"

echo "== stateloop diagram Specs/GitHubSearch.machine.yml --format svg"
"$stateloop" diagram Specs/GitHubSearch.machine.yml --format svg --output "$out/GitHubSearch.svg"
echo "wrote $out/GitHubSearch.svg"

echo "== the example machines, running"
swift run stateloop-demo
