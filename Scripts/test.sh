#!/usr/bin/env bash
# The whole test suite: first the lint (.swift-format), then reader, checks, generator snippets and goldens (compiled and run), diagrams
# through real Graphviz, the inspector's page in headless Chromium, the runtime, the CLI, the
# examples, end-to-end `swift build`s of fixture packages that apply the build-tool plugin; then the runtime and generated machines under ThreadSanitizer, the front end
# and generator under AddressSanitizer, and a one-minute fuzz run; the DocC catalogs are built after the first build.
set -euo pipefail
cd "$(dirname "$0")/.."

# First, as it takes seconds: the rules of .swift-format (Scripts/lint.sh says which findings it leaves out).
echo "== swift format lint --strict"
time bash Scripts/lint.sh

bash Scripts/deps.sh

# Three tiers of one build. The generator's tests run the real `swiftc` on generated code (tens of
# seconds each) and the end-to-end tests real `swift build`s of fixture packages (minutes each), and
# each blocks one of the test process's threads while it waits: the cooperative pool has one thread
# per core (two here), so beside them the async suites of the first tier (1-minute time limits,
# 0.1 s of work) waited longer than their limits for a thread (CI at f8f6f82: no test of the tier
# had finished after ten minutes; ten failed their limits). So each runs in a process of its own.
# --traits Inspector: with the inspector's web server (hummingbird, SwiftNIO), which the page's
# browser tests run; a package depending on StateLoop leaves the trait off (Docs/Inspector.md I30).
# Postgres: the PostgreSQL store (Docs/Postgres.md G1), the same build, so that nothing is built twice.
# A PostgreSQL server of this run's own, for the PostgreSQL store's suite and the store conformance
# tests on it (Docs/Postgres.md G30-G32): installed when missing, in a temporary folder, stopped on
# exit, failure included. STATELOOP_REQUIRE_POSTGRES: a test that finds no server fails, never skips.
# --traits Postgres builds StateLoopPostgres on postgres-nio (G1).
postgres_dir=$(mktemp -d)
trap 'bash Scripts/postgres.sh stop "$postgres_dir"' EXIT
STATELOOP_POSTGRES_URL=$(bash Scripts/postgres.sh start "$postgres_dir")
export STATELOOP_POSTGRES_URL STATELOOP_REQUIRE_POSTGRES=1

echo "== swift test: every suite but the generator's compiles, the explore builds and the end-to-end builds"
swift build --build-tests --traits Inspector,Postgres
echo "== the DocC catalogs of StateLoop, StateLoopTesting and StateLoopDurable, warnings as errors (Scripts/docs.sh)"
time bash Scripts/docs.sh --traits Inspector,Postgres
time swift test --skip-build --traits Inspector,Postgres --parallel --skip StateLoopCodegenTests --skip EndToEndTests --skip ExploreBuildTests --skip HostDemoTests --skip PostgresLeaseTests --skip PostgresFailoverTests

echo "== swift test: the PostgreSQL leases, whose rules are timed (Docs/Postgres.md G40-G46)"
time swift test --skip-build --traits Inspector,Postgres --filter "PostgresLeaseTests|PostgresFailoverTests" --skip StateLoopCodegenTests --skip EndToEndTests --skip ExploreBuildTests

# The host demo's 200 kills start 201 processes that take both cores for most of a minute: alone,
# so that the timing of the tier's other tests (the inspector's reconnection, I9) is not theirs.
echo "== swift test: the host demo, killed 200 times (Docs/Hosting.md H70-H72)"
time swift test --skip-build --traits Inspector,Postgres --filter HostDemoTests --skip StateLoopCodegenTests --skip EndToEndTests --skip ExploreBuildTests

echo "== swift test: the generator's tests, which compile and run generated Swift with swiftc"
time swift test --skip-build --traits Inspector,Postgres --parallel --filter StateLoopCodegenTests

echo "== swift test: stateloop explore, which compiles each machine it explores with swift build (Docs/Testing.md V25)"
time swift test --skip-build --traits Inspector,Postgres --filter ExploreBuildTests

echo "== swift test: end-to-end builds of Tests/Fixtures packages that apply the plugin"
time swift test --skip-build --traits Inspector,Postgres --filter EndToEndTests

echo "== the runtime, the generated machines and the journal stores under ThreadSanitizer"
# GeneratedCodeTests: users run their apps and tests under TSan, so the generated reducers (every
# statechart golden, traced and untraced) run here too, not only the hand-written runtime; and the
# journal stores, which many tasks call at once (Docs/Durability.md D12).
# The sanitizer builds leave the Inspector trait off, and with it the web server: none of the suites
# below runs it, and it would double their build (Docs/Inspector.md I30). So this build also runs the
# one test of stateloop-inspect built without the trait (i61WithoutTheTrait), which it compiles anyway.
# STATELOOP_TEST_TARGETS: each sanitizer build compiles only the test targets it runs (Package.swift).
STATELOOP_TEST_TARGETS="StateLoopTests GeneratedCodeTests StateLoopDurableTests StateLoopHostTests StateLoopInspectorServerTests" \
    swift test --sanitize=thread --scratch-path .build-tsan --filter "StateLoopTests|GeneratedCodeTests|StateLoopDurableTests|StateLoopHostTests|i61WithoutTheTrait"

echo "== the front end and generator under AddressSanitizer"
# --disable-xctest: LeakSanitizer reports a leak inside XCTest's own runner (which runs no test
# here); Swift Testing runs every test.
STATELOOP_TEST_TARGETS="StateLoopSpecTests StateLoopCodegenTests" \
    swift test --sanitize=address --scratch-path .build-asan --disable-xctest \
    --filter "StateLoopSpecTests|StateLoopCodegenTests\.(GoldenTests|SnippetTests|TemplateSetTests|OutputTests|SwiftLiteralTests|EmbeddedSwiftCheckTests|MustacheParentTests|EmbeddedTemplatesTests)"

echo "== fuzzing the front end and generator for a minute"
bash Scripts/fuzz.sh 60
