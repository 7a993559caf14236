// Transition coverage: the harness records the branches each step takes (T11), the report
// (T12), and the files written for `stateloop coverage` (T13).

import Foundation
import StateLoop
import StateLoopTesting
import Testing

@Suite struct TransitionCoverageTests {
    @Test("T11: every step of the harness records the branches it takes")
    func t11() {
        let coverage = TransitionCoverage()
        #expect(coverage.taken(Radio.self).isEmpty)
        let test = readyRadio(coverage: coverage)
        test.send(.play) { $0.mode = .playing }
        test.send(.tune("rock"))
        // Skipped events are reduced, and recorded, too.
        test.answer(.ticks("jazz"), with: .tick(3))
        test.skipReceivedEvents()
        test.skipPendingRuns()
        test.finish()
        #expect(coverage.taken(Radio.self) == [0, 2, 4, 5, 6, 9])
    }

    @Test("T11: the harness records into the shared registry unless given another")
    func t11Shared() {
        let test = MachineTest(Radio.self, state: Radio.State(mode: .playing, station: "jazz"))
        test.send(.off) { $0.mode = .off }
        test.skipPendingRuns()
        test.finish()
        #expect(TransitionCoverage.shared.taken(Radio.self).contains(12))
    }

    @Test("T12: the report warns at the spec line of every branch never taken, then sums up")
    func t12() {
        let coverage = TransitionCoverage()
        coverage.record(Radio.self, taken: Set(0...12).subtracting([3, 11]))
        let report = coverage.report(Radio.self)
        #expect(report.untaken.map(\.id) == [3, 11])
        #expect(report.description == """
            Radio.machine.yml:16:7: warning: transition never taken in tests: tuning --loadFailed--> failed
            Radio.machine.yml:32:7: warning: transition never taken in tests: failed --after 5s--> tuning
            Radio: 10/12 transitions taken, 1/1 ignores
            """)
        #expect(coverage.report(Radio.self, specDirectory: "Specs").warnings.first?.hasPrefix("Specs/Radio.machine.yml:16:7: ") == true)
        #expect(coverage.report(Radio.self, specDirectory: "Specs/").warnings.first?.hasPrefix("Specs/Radio.machine.yml:16:7: ") == true)
    }

    @Test("T13: the taken branches are written as LINE:COL lines to DIRECTORY/<specFile>.<pid>.taken")
    func t13() throws {
        let coverage = TransitionCoverage()
        coverage.record(Radio.self, taken: [5, 0, 2])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("stateloop-coverage-\(UUID().uuidString)").appendingPathComponent("nested")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try coverage.writeTaken(toDirectory: directory.path, processID: 42)
        let written = try String(contentsOf: directory.appendingPathComponent("Radio.machine.yml.42.taken"), encoding: .utf8)
        #expect(written == "10:7\n14:7\n20:7\n")
        #expect(TransitionCoverage.directoryVariable == "STATELOOP_COVERAGE")
    }

    @Test("T15: a link planted at the coverage file's name is replaced, its target never written")
    func t15() throws {
        let coverage = TransitionCoverage()
        coverage.record(Radio.self, taken: [5, 0, 2])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let victim = directory.appendingPathComponent("victim.txt")
        try Data("precious\n".utf8).write(to: victim)
        let name = directory.appendingPathComponent("Radio.machine.yml.42.taken")
        try FileManager.default.createSymbolicLink(atPath: name.path, withDestinationPath: victim.path)
        try coverage.writeTaken(toDirectory: directory.path, processID: 42)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: name.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOf: name, encoding: .utf8) == "10:7\n14:7\n20:7\n")
        // Nothing else is left in the folder: no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Radio.machine.yml.42.taken", "victim.txt"])
    }

    @Test("T15: a folder that cannot be made or written is an error in words, naming the path")
    func t15Errors() throws {
        let coverage = TransitionCoverage()
        coverage.record(Radio.self, taken: [0])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data().write(to: file)
        let error = try #require(throws: (any Error).self) {
            try coverage.writeTaken(toDirectory: file.appendingPathComponent("nested").path, processID: 42)
        }
        #expect("\(error)" == "cannot write transition coverage to \(file.path)/nested: \(file.path) is a file, not a folder")
    }
}
