// `stateloop paths` and `stateloop coverage` as users and CI call them (Docs/Testing.md, "Paths"
// and "stateloop coverage").
import Foundation
import Testing

@Suite struct PathsCommandTests {
    static let gitHubSearch = "Specs/GitHubSearch.machine.yml"

    @Test("P13: paths prints a summary, a line per state and two per transition, and exits with 0")
    func text() throws {
        let result = try StateLoopTool.run(["paths", Self.gitHubSearch])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + 5 + 2 * 11)
        #expect(lines.first == "Specs/GitHubSearch.machine.yml: 5 states, 11 transitions, all reachable")
        #expect(lines.contains("state idle: (initial)"))
        #expect(lines.contains("state loading: searchChanged [!event.search.isEmpty]"))
        let transition = try #require(lines.firstIndex(of: "transition Specs/GitHubSearch.machine.yml:42:15 ready --scrolledNearBottom [nextPageURL != nil]--> loading:"))
        #expect(lines[transition + 1] == "  searchChanged [!event.search.isEmpty] → loaded (answer of loadNextPage) → scrolledNearBottom [nextPageURL != nil]")
    }

    @Test("P13: paths warns at each state and transition no path reaches, at its line, and still exits with 0")
    func unreachable() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let spec = """
            machine: Shadow
            events: {go: {}, stop: {}}
            initial: idle
            states:
              idle:
                on: {go: busy}
                ignore: [stop]
              busy:
                initial: working
                on: {stop: lost}
                states:
                  working: {on: {stop: idle, go: resting}}
                  resting: {on: {stop: idle, go: working}}
              lost:
                on: {go: idle}
                ignore: [stop]

            """
        try Data(spec.utf8).write(to: directory.appending(path: "Shadow.machine.yml"))
        let result = try StateLoopTool.run(["paths", "Shadow.machine.yml"], in: directory)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Shadow.machine.yml: 5 states (1 unreachable), 9 transitions (3 unreachable)\n"))
        #expect(result.stderr.split(separator: "\n") == [
            "Shadow.machine.yml:10:16: warning: transition unreachable by any path: busy --stop--> lost ('working --stop--> idle' (line 12) always applies first)",
            "Shadow.machine.yml:14:3: warning: state unreachable by any path: 'lost' (every transition into it is unreachable (10:16))",
            "Shadow.machine.yml:15:14: warning: transition unreachable by any path: lost --go--> idle (its state 'lost' is never entered)",
            "Shadow.machine.yml:16:14: warning: transition unreachable by any path: lost --stop--> (ignored) (its state 'lost' is never entered)",
        ])
    }

    @Test("P13: paths of a spec with errors prints them as check does and exits with 1")
    func specErrors() throws {
        let result = try StateLoopTool.run(["paths", "\(CLITests.invalid)/UnhandledEvents.machine.yml"])
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.stderr.contains("UnhandledEvents.machine.yml:9:3: error: state 'closed' does not handle event 'close'"))
    }

    @Test("P13: paths --format json gives every state and transition with its steps, in stable keys")
    func json() throws {
        let result = try StateLoopTool.run(["paths", Self.gitHubSearch, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(Set(root.keys) == ["configurations", "machine", "spec", "states", "transitions"])
        #expect(root["configurations"] as? Int == 4)  // idle, loading, ready, failed: one leaf each
        #expect(root["machine"] as? String == "GitHubSearch")
        let transitions = try #require(root["transitions"] as? [[String: Any]])
        #expect(transitions.count == 11)
        let next = try #require(transitions.first { $0["line"] as? Int == 42 })
        #expect(next["description"] as? String == "ready --scrolledNearBottom [nextPageURL != nil]--> loading")
        let steps = try #require(next["path"] as? [[String: Any]])
        #expect(steps.map { $0["trigger"] as? String } == ["event", "event", "event"])
        #expect(steps.map { $0["event"] as? String } == ["searchChanged", "loaded", "scrolledNearBottom"])
        #expect(steps[1]["effect"] as? String == "loadNextPage")
        let guardJSON = try #require((steps[2]["holding"] as? [[String: Any]])?.first)
        #expect(guardJSON["expression"] as? String == "nextPageURL != nil")
        #expect(guardJSON["line"] as? Int == 42)
        #expect(steps[2]["transitions"] as? [Int] == [next["id"] as? Int].compactMap { $0 })
    }

    @Test("S150: paths --format json marks the delivery of a pending send as trigger sent, with its delay")
    func jsonSentStep() throws {
        let result = try StateLoopTool.run(["paths", "Specs/SearchBox.machine.yml", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let states = try #require(root["states"] as? [[String: Any]])
        let searching = try #require(states.first { $0["name"] as? String == "searching" }?["path"] as? [[String: Any]])
        #expect(searching.map { $0["trigger"] as? String } == ["event", "sent"])
        #expect(searching.map { $0["event"] as? String } == ["typed", "settled"])
        #expect(searching[1]["delay"] as? String == "300ms")
        #expect(searching[1]["text"] as? String == "settled (sent after 300ms)")
    }
}

@Suite struct CoverageCommandTests {
    static let gitHubSearch = "Specs/GitHubSearch.machine.yml"

    /// A folder with `files` (name → lines) as the harness writes them.
    static func recorded(_ files: [String: [String]]) throws -> URL {
        let directory = try StateLoopTool.temporaryDirectory()
        for (name, lines) in files {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: directory.appending(path: name))
        }
        return directory
    }

    @Test("C1: coverage merges every file of a spec and warns at each transition never taken")
    func merges() throws {
        let taken = try Self.recorded([
            "GitHubSearch.machine.yml.100.taken": ["24:11", "36:19", "42:15", "24:11"],
            "GitHubSearch.machine.yml.200.taken": ["27:11", "28:14", "32:22", "37:19", "38:18", "43:15"],
            "Counter.machine.yml.100.taken": ["16:18"],
        ])
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == "GitHubSearch: 5/7 transitions taken, 4/4 ignores\n")
        #expect(result.stderr.split(separator: "\n") == [
            "Specs/GitHubSearch.machine.yml:48:31: warning: transition never taken in tests: failed --scrolledNearBottom--> loading",
            "Specs/GitHubSearch.machine.yml:46:15: warning: transition never taken in tests: failed --after 5s--> loading",
        ])
    }

    @Test("C2: a spec no test recorded counts as none taken, with a note; several specs end with a total")
    func unrecorded() throws {
        let taken = try Self.recorded(["GitHubSearch.machine.yml.7.taken": ["24:11"]])
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "Specs/Counter.machine.yml", "--taken", taken.path])
        #expect(result.status == 0)
        #expect(result.output == "GitHubSearch: 1/7 transitions taken, 0/4 ignores\nCounter: 0/3 transitions taken, 0/1 ignores\ntotal: 1/10 transitions taken, 0/5 ignores\n")
        #expect(result.stderr.contains("Specs/Counter.machine.yml: note: no test recorded transitions of this spec (no Counter.machine.yml.<pid>.taken in \(taken.path))\n"))
        #expect(result.stderr.contains("Specs/Counter.machine.yml:16:18: warning: transition never taken in tests: counting --increment--> (stays)\n"))
    }

    @Test("C3: --minimum fails the run when less of the transitions were taken")
    func minimum() throws {
        let taken = try Self.recorded(["GitHubSearch.machine.yml.1.taken": ["24:11", "36:19", "42:15", "27:11", "28:14", "32:22"]])
        let enough = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path, "--minimum", "50"])
        #expect(enough.status == 0)
        let short = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path, "--minimum", "80"])
        #expect(short.status == 1)
        #expect(short.stderr.hasSuffix("error: 57.1% of the transitions were taken, below the minimum of 80%\n"))
    }

    @Test("C8: ignores are counted apart, and --minimum reads the transitions only")
    func ignoresAreCountedApart() throws {
        let taken = try Self.recorded(["GitHubSearch.machine.yml.1.taken": ["24:11", "32:22", "36:19", "37:19", "42:15", "46:15", "48:31"]])
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path, "--minimum", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == "GitHubSearch: 7/7 transitions taken, 0/4 ignores\n")
        // An ignore no test took is still a warning at its line.
        #expect(result.stderr.contains("Specs/GitHubSearch.machine.yml:38:18: warning: transition never taken in tests: loading --scrolledNearBottom--> (ignored)\n"), "\(result.stderr)")
    }

    @Test("C4: a line naming no transition of the spec, or not LINE:COL, is a warning and left out")
    func strayLines() throws {
        let taken = try Self.recorded(["GitHubSearch.machine.yml.1.taken": ["24:11", "99:1", "oops"]])
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path])
        #expect(result.status == 0)
        #expect(result.output == "GitHubSearch: 1/7 transitions taken, 0/4 ignores\n")
        #expect(result.stderr.contains("Specs/GitHubSearch.machine.yml:99:1: warning: a test took a transition here, but the spec has none here (recorded before the spec changed?)\n"))
        #expect(result.stderr.contains("GitHubSearch.machine.yml.1.taken:3:1: warning: 'oops' is not LINE:COL; left out\n"))
    }

    @Test("C6: a .taken file with CRLF line ends counts as one with LF line ends")
    func crlf() throws {
        let taken = try StateLoopTool.temporaryDirectory()
        try Data("24:11\r\n36:19\r\n42:15\r\n".utf8).write(to: taken.appending(path: "GitHubSearch.machine.yml.1.taken"))
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path])
        #expect(result.status == 0)
        #expect(result.output == "GitHubSearch: 3/7 transitions taken, 0/4 ignores\n")
        #expect(!result.stderr.contains("LINE:COL"), "\(result.stderr)")
    }

    @Test("C7: a position that is not in any file (a line or column below 1) is a warning at its line in the .taken file")
    func invalidPositions() throws {
        let taken = try Self.recorded(["GitHubSearch.machine.yml.1.taken": ["24:11", "0:0", "-1:5", "3:0", "+24:11"]])
        let result = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", taken.path])
        #expect(result.status == 0)
        #expect(result.output == "GitHubSearch: 1/7 transitions taken, 0/4 ignores\n")
        let file = "\(taken.path)/GitHubSearch.machine.yml.1.taken"
        for (line, text) in [(2, "0:0"), (3, "-1:5"), (4, "3:0"), (5, "+24:11")] {
            #expect(result.stderr.contains("\(file):\(line):1: warning: '\(text)' is not a position in the spec (LINE:COL, each a number from 1); left out\n"), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("Specs/GitHubSearch.machine.yml: warning"), "\(result.stderr)")
        #expect(!result.stderr.contains("Specs/GitHubSearch.machine.yml:-1"), "\(result.stderr)")
    }

    @Test("C5: a missing folder is an error at it, with exit status 2; a spec with errors exits with 1")
    func failures() throws {
        let missing = try StateLoopTool.run(["coverage", Self.gitHubSearch, "--taken", "/nonexistent/coverage"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "/nonexistent/coverage: error: no recorded transitions: no such folder (run the tests with STATELOOP_COVERAGE=/nonexistent/coverage first)\n")
        let taken = try Self.recorded([:])
        let invalid = try StateLoopTool.run(["coverage", "\(CLITests.invalid)/UnhandledEvents.machine.yml", "--taken", taken.path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("error: state 'closed' does not handle event 'close'"))
    }
}
