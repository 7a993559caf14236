// swift-tools-version: 6.1
//
// StateLoop: YAML state machines -> compiler-checked Swift, run by a feedback-loop runtime.
//
// The pipeline, in dependency order:
//   CYAML (libyaml) -> StateLoopSpec (read, decode, check) -> StateLoopCodegen (Swift)
//                                                          -> StateLoopDiagram (DOT, Mermaid)
//   -> stateloop (CLI) -> StateLoopPlugin (build-tool plugin), StateLoopCommand (command plugin)
// The runtime `StateLoop` stands alone; generated code imports it.
import PackageDescription

let package = Package(
    name: "StateLoop",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "StateLoop", targets: ["StateLoop"]),
        // The exhaustive test harness `MachineTest` and transition coverage (Docs/Testing.md).
        .library(name: "StateLoopTesting", targets: ["StateLoopTesting"]),
        // The journal store of durable machines (Docs/Durability.md): a protocol, SQLite, in memory.
        .library(name: "StateLoopDurable", targets: ["StateLoopDurable"]),
        // Many durable machines in a server (Docs/Hosting.md): `MachineHost` as a
        // swift-service-lifecycle `Service`, with its logs (swift-log) and metrics (swift-metrics).
        .library(name: "StateLoopHost", targets: ["StateLoopHost"]),
        // The journal store on a PostgreSQL server (Docs/Postgres.md): build it with the Postgres
        // trait, which brings postgres-nio (SwiftNIO) to this product alone (G1).
        .library(name: "StateLoopPostgres", targets: ["StateLoopPostgres"]),
        // The app side of `stateloop inspect` (Docs/Inspector.md): link it in debug builds.
        .library(name: "StateLoopInspector", targets: ["StateLoopInspector"]),
        // The reader and the generator as libraries only so that Benchmarks/ (a separate package,
        // to keep release benchmarks out of `swift build` here) can time them in-process. The
        // leading underscore says it: no API promise (like swift-openapi-generator's
        // `_OpenAPIGeneratorCore`); use the plugin or the `stateloop` CLI.
        .library(name: "_StateLoopSpec", targets: ["StateLoopSpec"]),
        .library(name: "_StateLoopCodegen", targets: ["StateLoopCodegen"]),
        .executable(name: "stateloop", targets: ["stateloop"]),
        // The inspector's web server, which `stateloop inspect` runs: build it with the Inspector
        // trait (`swift build --traits Inspector --product stateloop-inspect`, Docs/Inspector.md I30).
        .executable(name: "stateloop-inspect", targets: ["stateloop-inspect"]),
        .plugin(name: "StateLoopPlugin", targets: ["StateLoopPlugin"]),
        .plugin(name: "StateLoopCommand", targets: ["StateLoopCommand"]),
    ],
    // Inspector: the inspector's web server on hummingbird (Docs/Inspector.md I30). Off by default,
    // so that a package depending on StateLoop resolves none of hummingbird's packages: SwiftPM
    // fetches no dependency that only a disabled trait uses.
    // Postgres: `PostgresJournalStore` on postgres-nio (Docs/Postgres.md G1), off by default for the
    // same reason: a package that does not enable it resolves no postgres-nio.
    traits: [
        .trait(name: "Inspector", description: "Builds stateloop-inspect with its web server (hummingbird, SwiftNIO)"),
        .trait(name: "Postgres", description: "Builds StateLoopPostgres, the journal store on a PostgreSQL server (postgres-nio, SwiftNIO)"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The runtime's event queue: a ring buffer that releases each event once it is reduced.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // StateLoopHost only: a server's conventions (Docs/Hosting.md H54-H61).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The inspector's web server, with the Inspector trait only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // The PostgreSQL journal store, with the Postgres trait only.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The runtime: System, Feedback, react(...), Store. No dependency on the generator.
        // DequeModule: the event queue; HeapModule: the deadlines of a timer feedback's armings.
        .target(name: "StateLoop", dependencies: [
            .product(name: "DequeModule", package: "swift-collections"), .product(name: "HeapModule", package: "swift-collections"),
        ]),

        // The test harness: drives any `StateMachine` step by step; imports Swift Testing and
        // XCTest to report failures, so only test targets should depend on it.
        .target(name: "StateLoopTesting", dependencies: ["StateLoop"]),

        // The libyaml C API as a Swift module (Debian libyaml-dev, Homebrew libyaml).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),

        // The SQLite C API as a Swift module (Debian libsqlite3-dev, Homebrew sqlite; Apple SDKs ship it).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),

        // Durable machines: the journal stores (`JournalStore`, `SQLiteJournalStore`,
        // `InMemoryJournalStore`) and `DurableSystem`, a system that journals and resumes.
        // DequeModule: the host's commit queue; HeapModule: its scheduler's window of timer rows.
        .target(name: "StateLoopDurable", dependencies: [
            "CSQLite", "StateLoop",
            .product(name: "DequeModule", package: "swift-collections"), .product(name: "HeapModule", package: "swift-collections"),
        ]),

        // A host as a server's service: graceful shutdown, logs and metrics of what it does
        // (Docs/Hosting.md H54-H61). The host itself is StateLoopDurable's, which links none of these.
        .target(name: "StateLoopHost", dependencies: [
            "StateLoop", "StateLoopDurable",
            .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // The journal store on PostgreSQL (Docs/Postgres.md G1-G40): the same `HostJournalStore` as
        // SQLiteJournalStore, on postgres-nio's `PostgresClient`; compiled with the Postgres trait
        // only (`#if Postgres`), so without it the target is empty and links nothing.
        .target(name: "StateLoopPostgres", dependencies: [
            "StateLoop", "StateLoopDurable",
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
        ]),

        // Attaches running systems to `stateloop inspect`: a thread of its own, POSIX sockets, a
        // minimal WebSocket client (Docs/Inspector.md I1-I29). The runtime only: no networking library.
        .target(name: "StateLoopInspector", dependencies: ["StateLoop"]),

        // The inspector: the store of messages, the diagrams, the diffs and the exported tests, the
        // page; and the web server that serves them (`InspectorServer`), which is compiled with the
        // Inspector trait only (I30).
        .target(
            name: "StateLoopInspectorServer",
            dependencies: [
                // StateLoopDurable, StateLoopJournalReading and StateLoopInspector: a journal shown
                // offline as the messages an app sends (`--journal`); StateLoopInspector: the
                // branch fingerprint a hello carries (I76); StateLoopCodegen: a spec loaded with the
                // check of its locked journal layout (Docs/Durability.md D124).
                "StateLoop", "StateLoopSpec", "StateLoopCodegen", "StateLoopDiagram", "StateLoopDurable", "StateLoopJournalReading", "StateLoopInspector",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Inspector"])),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["Inspector"])),
            ]
        ),
        .executableTarget(
            name: "stateloop-inspect",
            dependencies: ["StateLoopInspectorServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Reading and checking: libyaml events -> node tree with marks -> MachineSpec -> diagnostics.
        .target(name: "StateLoopSpec", dependencies: ["CYAML"]),

        // Rendering Swift: render context (all logic) + Mustache templates (no logic) + file writer.
        .target(
            name: "StateLoopCodegen",
            dependencies: ["StateLoopSpec", .product(name: "Mustache", package: "swift-mustache")]
        ),

        // A persisted machine's journal read back as text, with the generator's layouts of its spec
        // and of its lock's older versions: `stateloop journal` and the inspector's `--journal`.
        .target(name: "StateLoopJournalReading", dependencies: ["StateLoop", "StateLoopSpec", "StateLoopCodegen"]),

        // Rendering diagrams: Graphviz DOT and Mermaid stateDiagram-v2.
        .target(name: "StateLoopDiagram", dependencies: ["StateLoopSpec"]),

        // The command-line tool: generate, check, diagram, lock; `journal` reads journal files
        // (so it links StateLoopDurable, and with it the system SQLite).
        .executableTarget(
            name: "stateloop",
            dependencies: [
                "StateLoopCodegen", "StateLoopDiagram", "StateLoop", "StateLoopDurable", "StateLoopJournalReading",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Build-tool plugin: one build command per *.machine.yml of the target it is applied to.
        .plugin(name: "StateLoopPlugin", capability: .buildTool(), dependencies: ["stateloop"]),

        // Command plugin: writes generated Swift and diagrams into the package, on request.
        .plugin(
            name: "StateLoopCommand",
            capability: .command(
                intent: .custom(verb: "stateloop", description: "Write generated Swift and diagrams of every *.machine.yml into the package"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated Swift and diagrams next to the specs")]
            ),
            dependencies: ["stateloop"]
        ),

        // The example machines of Specs/, generated by the plugin during this build, with their
        // in-process effects; and the demo that runs them.
        .target(
            name: "StateLoopExamples",
            dependencies: ["StateLoop"],
            path: "Specs",
            plugins: ["StateLoopPlugin"]
        ),
        // `serve` (orders over HTTP, Docs/Hosting.md H73) is built with the Inspector trait, which
        // builds the package's web servers: a package depending on StateLoop resolves no Hummingbird.
        .executableTarget(name: "stateloop-demo", dependencies: [
            "StateLoopExamples", "StateLoopDurable", "StateLoopPostgres",
            .target(name: "StateLoopHost", condition: .when(traits: ["Inspector"])),
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Inspector"])),
        ]),

        // Helpers shared by the test targets: `ManualClock`, the clock that timer tests advance by
        // hand, `ReadmeTour`, the README's tour as the tests read it, `JournalRoundTrip`, the
        // round trips of a durable machine's journal coding, and `writeDurableJournal`, a real journal.
        // With the Postgres trait, `PostgresTestDatabase` too: the test server's stores (Docs/Postgres.md G32).
        .target(name: "StateLoopTestSupport", dependencies: ["StateLoop", "StateLoopDurable", "StateLoopPostgres"], path: "Tests/StateLoopTestSupport"),

        .testTarget(name: "StateLoopTests", dependencies: ["StateLoop", "StateLoopTestSupport"]),
        // The harness and coverage, on a hand-written machine.
        .testTarget(name: "StateLoopTestingTests", dependencies: ["StateLoop", "StateLoopTesting"]),
        // Fixtures are read through #filePath, so they stay plain files in the source tree.
        .testTarget(name: "StateLoopSpecTests", dependencies: ["StateLoopSpec"], exclude: ["Fixtures"]),
        // Snippet and golden tests of the generator; Fixtures/ holds the golden specs (read via #filePath).
        .testTarget(
            name: "StateLoopCodegenTests",
            dependencies: ["StateLoopCodegen", "StateLoopSpec", "StateLoopTestSupport", .product(name: "Mustache", package: "swift-mustache")],
            exclude: ["Fixtures"]
        ),
        // Compiles and runs the generator's golden outputs (Generated/) against the runtime, so
        // every expected output is valid, warning-free Swift that behaves as the spec says, and
        // drives them with the StateLoopTesting harness.
        .testTarget(
            name: "GeneratedCodeTests",
            // StateLoopDurable and stateloop: `stateloop journal` reads a journal the Ledger fixture writes (D84).
            // StateLoopInspector: the fixtures attached to an inspector the test plays (Docs/Inspector.md).
            dependencies: ["StateLoop", "StateLoopTesting", "StateLoopTestSupport", "StateLoopDurable", "stateloop", "StateLoopInspector"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(name: "StateLoopDiagramTests", dependencies: ["StateLoopDiagram"], exclude: ["Golden", "Fixtures"]),
        // Runs every example machine of Specs/ (generated by the plugin) and pins its trace, and
        // tests them step by step with the StateLoopTesting harness.
        .testTarget(name: "ExamplesTests", dependencies: ["StateLoopExamples", "StateLoopTesting", "stateloop-demo", "StateLoopDurable", "StateLoopTestSupport"]),
        // The `stateloop` executable: exit codes, diagnostics, files written.
        // `journal` reads journals a Till (StateLoopExamples) writes in the test, and the demo's.
        .testTarget(name: "StateLoopCLITests", dependencies: ["stateloop", "stateloop-demo", "StateLoopExamples", "StateLoopDurable", "StateLoopJournalReading", "StateLoopTestSupport"], exclude: ["Help"]),
        // The spec-file naming the plugins and the CLI share (Plugins/PluginsShared, linked in).
        .testTarget(name: "PluginsSharedTests"),
        // The journal stores on real SQLite files and durable systems on hand-written machines; the
        // crash tests SIGKILL `journal-crash-helper`.
        .testTarget(
            name: "StateLoopDurableTests",
            // StateLoopPostgres: with the Postgres trait, StoreKind.postgres runs the store tests on a real server (G5).
            dependencies: ["StateLoop", "StateLoopDurable", "StateLoopPostgres", "StateLoopTestSupport", "journal-crash-helper", "durable-crash-helper"]
        ),
        // The host's service, logs and metrics (MetricsTestKit and InMemoryLogging record them), on
        // the example Tab machine.
        .testTarget(
            name: "StateLoopHostTests",
            dependencies: [
                "StateLoopHost", "StateLoopDurable", "StateLoopTestSupport", "StateLoopExamples",
                .product(name: "MetricsTestKit", package: "swift-metrics"), .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        // The PostgreSQL store on a real server that Scripts/postgres.sh starts (STATELOOP_POSTGRES_URL);
        // with the Postgres trait only. The store conformance tests are StateLoopDurableTests'
        // own, run on this store too (`StoreConformance`, Tests/StateLoopTestSupport).
        .testTarget(
            name: "StateLoopPostgresTests",
            dependencies: [
                "StateLoopPostgres", "StateLoop", "StateLoopDurable", "StateLoopTestSupport", "StateLoopExamples", "stateloop-demo",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ]
        ),
        // Appends numbered batches to a journal and says which committed, until it is killed.
        .executableTarget(name: "journal-crash-helper", dependencies: ["StateLoopDurable"], path: "Tests/JournalCrashHelper"),
        // Runs a durable machine on a SQLite file, sending it numbered events, until it is killed (D43).
        .executableTarget(name: "durable-crash-helper", dependencies: ["StateLoop", "StateLoopDurable"], path: "Tests/DurableCrashHelper"),
        // The inspector's store, diagrams and export; with the Inspector trait, its server and the
        // page in headless Chromium.
        .testTarget(
            name: "StateLoopInspectorServerTests",
            // StateLoopExamples and StateLoopInspector: a running TrafficLight attached to the page (I38).
            dependencies: ["StateLoopInspectorServer", "stateloop-inspect", "stateloop", "StateLoopTestSupport", "StateLoopExamples", "StateLoopInspector"],
            exclude: ["Fixtures"]
        ),
        // Real `swift build`s of Tests/Fixtures packages that apply the plugin.
        .testTarget(name: "EndToEndTests", dependencies: ["StateLoopTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// STATELOOP_TEST_TARGETS="A B" keeps only those test targets: each sanitizer run of Scripts/test.sh
// builds the suites it runs, not the whole test bundle (ASan would compile GeneratedCodeTests'
// goldens for nothing). Unset, every test target is kept.
if let kept = Context.environment["STATELOOP_TEST_TARGETS"]?.split(separator: " ").map(String.init) {
    let tests = Set(package.targets.filter { $0.type == .test }.map(\.name))
    for name in kept where !tests.contains(name) {
        fatalError("STATELOOP_TEST_TARGETS names '\(name)', which is not a test target of Package.swift")
    }
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
