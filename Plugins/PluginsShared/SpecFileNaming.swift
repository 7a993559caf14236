// Shared, as source, by the build-tool plugin, the command plugin and the `stateloop` CLI (each
// has a symbolic link to this file: a SwiftPM plugin cannot depend on a library). It owns how a
// spec file is recognised and named, so that the plugin's declared outputs and the files the CLI
// writes cannot disagree.

/// Which files are specs, what each one generates, which names are refused, and when two specs would collide.
enum SpecFileNaming {
    /// The endings of a spec's file name.
    static let suffixes = [".machine.yml", ".machine.yaml"]

    /// True for `Door.machine.yml` and `Door.machine.yaml`, and for a file named only `.machine.yml`,
    /// which is a spec that `refusal(ofSpecAt:)` refuses: the plugin and the CLI say so alike.
    static func isSpec(fileName: String) -> Bool {
        suffixes.contains { fileName.hasSuffix($0) }
    }

    /// The characters a spec's file name cannot contain: SwiftPM writes the generated file's name
    /// into its JSON build files without escaping a quote, and then cannot read them back
    /// ("unable to load output file map").
    static let unbuildableCharacters: Set<Character> = ["\""]

    /// A spec the plugin and the CLI refuse to generate because of its file name.
    struct Refusal: Equatable {
        /// The spec, where the error is reported.
        var spec: String
        /// What to tell the user, at `spec`.
        var message: String

        /// The error in the compiler's form, for the plugins (see `Collision.compilerStyleError`).
        var compilerStyleError: String {
            "\(spec):1:1: error: \(message)"
        }
    }

    /// Why the spec at `path` cannot be generated under its file name, or nil when it can: a
    /// name that is only `.machine.yml` (nothing to name the output after), or one with a
    /// character SwiftPM cannot carry.
    static func refusal(ofSpecAt path: String) -> Refusal? {
        let name = fileName(ofPath: path)
        if let suffix = suffixes.first(where: { name == $0 }) {
            return Refusal(spec: path, message: "the spec's file name has nothing before \(suffix); name it after its machine, as in Door\(suffix)")
        }
        if let character = name.first(where: { unbuildableCharacters.contains($0) }) {
            return Refusal(spec: path, message: "a spec's file name cannot contain '\(character)' (SwiftPM cannot carry it into the build); rename the spec")
        }
        return nil
    }

    /// The last component of `path`.
    static func fileName(ofPath path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// The file name of `path` without its folder and without `.machine.yml`/`.machine.yaml` (or
    /// its last extension, for any other name): `Specs/Door.machine.yml` -> `Door`. Diagrams are
    /// named after it; one suffix is removed, so `A.machine.yaml.machine.yml` -> `A.machine.yaml`.
    static func stem(ofSpecAt path: String) -> String {
        var name = fileName(ofPath: path)
        if let suffix = suffixes.first(where: { name.hasSuffix($0) && name.utf8.count > $0.utf8.count }) {
            name.removeLast(suffix.count)
        } else if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            name = String(name[..<dot])
        }
        return name
    }

    /// The Swift file generated for a spec that is not refused, known before the spec is read (a
    /// build plugin declares its outputs up front): `Door.machine.yml` -> `Door.machine.swift`.
    /// Not `Door.swift`: that is where a user puts the machine's effects, and swiftc rejects two
    /// files of one module with the same name.
    static func outputFileName(forSpecAt path: String) -> String {
        stem(ofSpecAt: path) + ".machine.swift"
    }

    /// The lock file beside a spec that persists (Docs/Durability.md D50, D58), in the spec's
    /// folder: `Specs/Door.machine.yml` -> `Specs/Door.machine.lock`. The plugin declares it as an
    /// input of the spec's command; the CLI reads and writes it.
    static func lockPath(forSpecAt path: String) -> String {
        let name = fileName(ofPath: path)
        return String(path.dropLast(name.count)) + stem(ofSpecAt: path) + ".machine.lock"
    }

    /// A spec that would write the same output file as an earlier one.
    struct Collision: Equatable {
        /// The later spec (in the order given), where the error is reported.
        var spec: String
        /// The earlier spec it collides with.
        var earlier: String
        /// The output file both would write.
        var output: String

        /// What to tell the user, at `spec`.
        var message: String {
            "this spec would generate \(output), like \(earlier); rename one of them (one output file per spec name and target)"
        }

        /// The error in the compiler's form, for the plugins: SwiftPM prints a plugin's
        /// `Diagnostics.error(_:file:line:)` without its file and line, so editors would not place
        /// it. The CLI prints a `Diagnostic` instead, which reads the same.
        var compilerStyleError: String {
            "\(spec):1:1: error: \(message)"
        }
    }

    /// The specs of `paths` (in order) that would write the output of an earlier one; refused
    /// specs are left out (they write nothing).
    static func collisions(_ paths: [String]) -> [Collision] {
        var first: [String: String] = [:]
        var collisions: [Collision] = []
        for path in paths where refusal(ofSpecAt: path) == nil {
            let output = outputFileName(forSpecAt: path)
            if let earlier = first[output] {
                collisions.append(Collision(spec: path, earlier: earlier, output: output))
            } else {
                first[output] = path
            }
        }
        return collisions
    }

    /// The specs of a target that `spec` may run as child machines (Docs/Effects.md E23): every
    /// other one, in order. The build plugin passes each with `--child` and lists it among the
    /// command's inputs, so that editing a child regenerates its parents.
    static func childSpecs(of spec: String, in paths: [String]) -> [String] {
        paths.filter { $0 != spec }
    }

    /// `--child PATH` for each of `childSpecs(of:in:)`: the arguments of `stateloop generate`.
    static func childArguments(of spec: String, in paths: [String]) -> [String] {
        childSpecs(of: spec, in: paths).flatMap { ["--child", $0] }
    }
}
