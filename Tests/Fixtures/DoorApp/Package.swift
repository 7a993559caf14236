// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DoorApp",
    platforms: [.macOS(.v14)],                  // StateLoop needs macOS 14 or later
    dependencies: [
        .package(path: "../StateLoop"),         // a clone of StateLoop beside this package (below)
    ],
    targets: [
        .executableTarget(
            name: "DoorApp",
            dependencies: [.product(name: "StateLoop", package: "StateLoop")],
            plugins: [.plugin(name: "StateLoopPlugin", package: "StateLoop")]
        ),
        .testTarget(                            // step 6: the machine's tests
            name: "DoorAppTests",
            dependencies: ["DoorApp", .product(name: "StateLoopTesting", package: "StateLoop")]
        ),
    ]
)
