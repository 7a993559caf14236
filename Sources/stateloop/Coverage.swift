import ArgumentParser
import Foundation
import StateLoopSpec

/// `stateloop coverage SPEC... --taken DIR [--minimum PERCENT] [--child SPEC]...`
struct Coverage: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report the transitions of specs that no test took.",
        discussion: """
            Tests run with STATELOOP_COVERAGE=DIR record the transitions they take in \
            DIR/<spec file name>.<pid>.taken, one LINE:COL a line. This merges every file of each \
            spec and prints each transition no test took as file:line:column: warning: ... on \
            standard error, at its line in the spec as named here, then a line per spec on \
            standard output (GitHubSearch: 5/7 transitions taken, 4/4 ignores) and, for several \
            specs, a total. Ignores are counted apart from the transitions. A spec no test \
            recorded counts as none taken, with a note. Exits with status 1 when a spec has \
            errors, or when --minimum is given and fewer transitions (ignores left out) were taken.
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    @Option(help: ArgumentHelp("The folder STATELOOP_COVERAGE named when the tests ran.", valueName: "dir"))
    var taken: String

    @Option(help: ArgumentHelp("Exit with status 1 when less than this percentage of all transitions (ignores left out) was taken.", valueName: "percent"))
    var minimum: Double?

    @Option(name: .customLong("child"), help: ArgumentHelp("A spec the specs may run as a child machine ('machine: Name'); repeatable.", valueName: "child"))
    var children: [String] = []

    func validate() throws {
        if let minimum, !(0...100).contains(minimum) {
            throw ValidationError("--minimum must be a percentage from 0 to 100.")
        }
    }

    func run() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: taken, isDirectory: &isFolder) else {
            throw Console.fail("no recorded transitions: no such folder (run the tests with STATELOOP_COVERAGE=\(taken) first)", about: taken)
        }
        guard isFolder.boolValue, let files = try? FileManager.default.contentsOfDirectory(atPath: taken).sorted() else {
            throw Console.fail("cannot read the recorded transitions: not a readable folder", about: taken)
        }
        let read = try ChildSpecs(specs: specs, children: children)
        var failed = false
        var total = (taken: 0, all: 0, takenIgnores: 0, ignores: 0)
        for spec in specs {
            let result = SpecLoader.load(contents: read.contents(of: spec), path: spec, library: read.library)
            guard let machine = result.spec else {
                Console.report(result.diagnostics)
                failed = true
                continue
            }
            let list = TransitionList(machine.spec)
            let recordings = files.filter { Self.isRecording($0, of: spec) }
            var diagnostics: [Diagnostic] = []
            var takenIDs = Set<Int>()
            if recordings.isEmpty {
                let name = URL(fileURLWithPath: spec).lastPathComponent
                diagnostics.append(Diagnostic(.note, "no test recorded transitions of this spec (no \(name).<pid>.taken in \(taken))", at: .wholeFile(spec)))
            }
            for file in recordings {
                let path = (taken as NSString).appendingPathComponent(file)
                let (ids, problems) = Self.read(path, spec: spec, list: list)
                takenIDs.formUnion(ids)
                diagnostics += problems
            }
            for entry in list.entries where !takenIDs.contains(entry.id) {
                diagnostics.append(.warning("transition never taken in tests: \(entry.description)", at: entry.location))
            }
            Console.report(diagnostics)
            // C8: ignores are counted apart, and `--minimum` reads the transitions only.
            let ignores = Set(list.entries.filter { if case .ignore = $0.branch { true } else { false } }.map(\.id))
            let takenIgnores = takenIDs.intersection(ignores).count
            let counts = (taken: takenIDs.count - takenIgnores, all: list.entries.count - ignores.count, takenIgnores: takenIgnores, ignores: ignores.count)
            print("\(machine.name.value): " + Self.summary(counts))
            total = (total.taken + counts.taken, total.all + counts.all, total.takenIgnores + counts.takenIgnores, total.ignores + counts.ignores)
        }
        if specs.count > 1 { print("total: " + Self.summary(total)) }
        if failed { throw ExitCode.specErrors }
        let percentage = total.all == 0 ? 100 : Double(total.taken) * 100 / Double(total.all)
        if let minimum, percentage < minimum {
            Console.printError("error: \(Self.percent(percentage)) of the transitions were taken, below the minimum of \(Self.percent(minimum))")
            throw ExitCode.specErrors
        }
    }

    /// True for `<spec file name>.<pid>.taken`, the files the harness writes for `spec`.
    static func isRecording(_ file: String, of spec: String) -> Bool {
        let prefix = URL(fileURLWithPath: spec).lastPathComponent + "."
        guard file.hasPrefix(prefix), file.hasSuffix(".taken") else { return false }
        let pid = file.dropFirst(prefix.count).dropLast(".taken".count)
        return !pid.isEmpty && pid.allSatisfy(\.isASCII) && pid.allSatisfy(\.isNumber)
    }

    /// The entries a `.taken` file names, and a warning for each line that names none: a line
    /// that is not `LINE:COL`, or a place where the spec (edited since?) has no transition.
    static func read(_ path: String, spec: String, list: TransitionList) -> (ids: Set<Int>, problems: [Diagnostic]) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return ([], [.warning("cannot read the recorded transitions; left out", at: .wholeFile(path))])
        }
        var ids = Set<Int>()
        var problems: [Diagnostic] = []
        // Any line end counts: "\r\n" is one `Character`, so splitting at "\n" alone would keep a
        // CRLF file in one piece (C6).
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let here = SourceLocation(file: path, line: number + 1, column: 1)
            let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let row = Int(parts[0]), let column = Int(parts[1]) else {
                problems.append(.warning("'\(trimmed)' is not LINE:COL; left out", at: here))
                continue
            }
            // C7: a place in a file has a line and a column from 1, written in digits only.
            guard row >= 1, column >= 1, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
                problems.append(.warning("'\(trimmed)' is not a position in the spec (LINE:COL, each a number from 1); left out", at: here))
                continue
            }
            let location = SourceLocation(file: spec, line: row, column: column)
            if let id = list.id(at: location) {
                ids.insert(id)
            } else {
                problems.append(.warning("a test took a transition here, but the spec has none here (recorded before the spec changed?)", at: location))
            }
        }
        return (ids, problems)
    }

    /// `8/9 transitions taken, 0/2 ignores`, without the ignores when there are none.
    static func summary(_ counts: (taken: Int, all: Int, takenIgnores: Int, ignores: Int)) -> String {
        "\(counts.taken)/\(counts.all) transitions taken" + (counts.ignores == 0 ? "" : ", \(counts.takenIgnores)/\(counts.ignores) ignores")
    }

    /// `85%`, `85.5%`.
    private static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }
}
