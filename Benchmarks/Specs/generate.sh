#!/usr/bin/env bash
# Regenerates the Swift of the benchmarks' machines (Hierarchical4, Flat, FlatSends; Till, the durable demo's;
# GitHubSearch, TCP, Grid and Ladder, which the exploration figures walk) into
# Sources/stateloop-bench/Generated/, with the `stateloop` CLI of the root package (built in debug
# if needed; STATELOOP=path/to/stateloop to use another). Run it after changing either spec or the
# generator: the reduce figures refuse to run when the checked-in Swift is not what the generator
# writes now.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${STATELOOP:-}" ]; then
    swift build --package-path ../.. --product stateloop
    STATELOOP="$(swift build --package-path ../.. --show-bin-path)/stateloop"
fi
# Relative spec paths, so the #sourceLocation directives name the spec and not this machine's folders.
"$STATELOOP" generate Hierarchical4.machine.yml Flat.machine.yml FlatSends.machine.yml ../../Specs/Till.machine.yml ../../Specs/GitHubSearch.machine.yml ../../Specs/TCP.machine.yml Grid.machine.yml Ladder.machine.yml -o ../Sources/stateloop-bench/Generated
