// swift-tools-version: 6.1
// A user's package as the README tells people to write it: a target with a *.machine.yml and the
// StateLoopPlugin applied. The end-to-end tests build a copy of it with `swift build`.
import PackageDescription

let package = Package(
    name: "DoorApp",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "StateLoop", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "DoorApp",
            dependencies: [.product(name: "StateLoop", package: "StateLoop")],
            plugins: [.plugin(name: "StateLoopPlugin", package: "StateLoop")]
        ),
    ]
)
