#!/usr/bin/env bash
# Benchmarks, built in release mode: prints `BENCH <name> <value>` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
# The instruction-count figures (generator.over_libyaml, scaling.generate) run valgrind's callgrind;
# the inspector's page figures (inspector.page.) headless Chromium and chromedriver, which deps.sh
# installs too, and the release build of stateloop-inspect, which they build first.
if [ "$(uname)" = Linux ]; then bash Scripts/deps.sh valgrind; else bash Scripts/deps.sh; fi
# The host on PostgreSQL (host.postgres., Docs/Postgres.md): a throw-away server of this run's own
# unless STATELOOP_POSTGRES_URL names one; when none can be started, those figures are left out.
if [ -z "${STATELOOP_POSTGRES_URL:-}" ]; then
    postgres_dir=$(mktemp -d)
    trap 'bash Scripts/postgres.sh stop "$postgres_dir"' EXIT
    if STATELOOP_POSTGRES_URL=$(bash Scripts/postgres.sh start "$postgres_dir"); then
        export STATELOOP_POSTGRES_URL
    else
        echo "warning: no PostgreSQL server could be started: the host.postgres. figures are left out" >&2
    fi
fi
swift run -c release --package-path Benchmarks stateloop-bench "$@"
