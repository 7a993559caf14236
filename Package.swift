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
        .executable(name: "stateloop", targets: ["stateloop"]),
        .plugin(name: "StateLoopPlugin", targets: ["StateLoopPlugin"]),
        .plugin(name: "StateLoopCommand", targets: ["StateLoopCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // The runtime: System, Feedback, react(...), Store. No dependency on the generator.
        .target(name: "StateLoop"),

        // The libyaml C API as a Swift module (Debian libyaml-dev, Homebrew libyaml).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),

        // Reading and checking: libyaml events -> node tree with marks -> MachineSpec -> diagnostics.
        .target(name: "StateLoopSpec", dependencies: ["CYAML"]),

        // Turns Templates/*.mustache into string literals so the generator carries its defaults.
        .executableTarget(name: "TemplateEmbedder"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),

        // Rendering Swift: render context (all logic) + Mustache templates (no logic) + file writer.
        .target(
            name: "StateLoopCodegen",
            dependencies: ["StateLoopSpec", .product(name: "Mustache", package: "swift-mustache")],
            plugins: ["EmbedTemplates"]
        ),

        // Rendering diagrams: Graphviz DOT and Mermaid stateDiagram-v2.
        .target(name: "StateLoopDiagram", dependencies: ["StateLoopSpec"]),

        // The command-line tool: generate, check, diagram.
        .executableTarget(
            name: "stateloop",
            dependencies: [
                "StateLoopCodegen", "StateLoopDiagram",
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

        .testTarget(name: "StateLoopTests", dependencies: ["StateLoop"]),
        // Fixtures are read through #filePath, so they stay plain files in the source tree.
        .testTarget(name: "StateLoopSpecTests", dependencies: ["StateLoopSpec"], exclude: ["Fixtures"]),
        // Snippet and golden tests of the generator; Fixtures/ holds the golden specs (read via #filePath).
        .testTarget(name: "StateLoopCodegenTests", dependencies: ["StateLoopCodegen", "StateLoopSpec"], exclude: ["Fixtures"]),
        // Compiles and runs the generator's golden outputs (Generated/) against the runtime, so
        // every expected output is valid, warning-free Swift that behaves as the spec says.
        .testTarget(
            name: "GeneratedCodeTests",
            dependencies: ["StateLoop"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        .testTarget(name: "StateLoopDiagramTests", dependencies: ["StateLoopDiagram"]),
    ],
    swiftLanguageModes: [.v6]
)
