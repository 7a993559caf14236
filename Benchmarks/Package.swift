// swift-tools-version: 6.1
//
// StateLoop's benchmarks, kept out of the root package so that `swift build` and `swift test`
// there never compile them. Run in release:
//   swift run -c release --package-path Benchmarks stateloop-bench [FILTER]
import PackageDescription

let package = Package(
    name: "StateLoopBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Postgres: the host on PostgreSQL (`host.postgres.`, Docs/Postgres.md).
        .package(name: "StateLoop", path: "..", traits: ["Postgres"]),
        // The same Deque the runtime queues its events in, for `baseline.queue`.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Prints one `BENCH <name> <value>` line per figure whose name contains FILTER.
        .executableTarget(
            name: "stateloop-bench",
            dependencies: [
                .product(name: "StateLoop", package: "StateLoop"),
                .product(name: "_StateLoopSpec", package: "StateLoop"),
                .product(name: "_StateLoopCodegen", package: "StateLoop"),
                .product(name: "StateLoopDurable", package: "StateLoop"),
                .product(name: "StateLoopPostgres", package: "StateLoop"),
                .product(name: "StateLoopInspector", package: "StateLoop"),
                // `MachineTest.explore`, for the exploration figures.
                .product(name: "StateLoopTesting", package: "StateLoop"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
