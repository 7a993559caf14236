import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// The journal layout each locked version keeps (Docs/Durability.md D90, D91).
@Suite struct JournalLayoutLockTests {
    /// The checked fixture `name`, read with the lock beside it.
    static func checked(_ name: String) throws -> CheckedMachineSpec {
        let contents = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent("\(name).machine.yml")))
        return try #require(SpecLoader.load(contents: contents, path: "\(name).machine.yml", library: TestPaths.fixtureLibrary).spec)
    }

    @Test("D90: a version's journal layout, locked, reads back equal to the generator's, the bookkeeping included", arguments: ["Ledger", "DrawerV1", "Courier"])
    func d90LayoutReadsBackFromTheLock(_ name: String) throws {
        let spec = try Self.checked(name)
        let layout = try #require(MachineContextBuilder.journalLayout(spec))
        let lock = LockFile(path: "\(name).machine.lock").locking(PersistedShape(spec.spec), layout: layout, as: layout.version)
        let text = lock.rendered(specFileName: "\(name).machine.yml")
        let read = LockFile.read(Array(text.utf8), path: "\(name).machine.lock")
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        // Equal but for where each version is written, which only a lock read from text knows.
        #expect(read.lock?.versions.map(\.layout) == lock.versions.map(\.layout))
        #expect(read.lock?.versions.map(\.shape) == lock.versions.map(\.shape))
        let locked = try #require(read.lock?.versions.first?.layout)
        #expect(locked.types.map(\.name) == layout.types.map(\.name))
        #expect(locked.types.map(\.shape.caseNames) == layout.types.map(\.shape.caseNames))
        for (mine, theirs) in zip(locked.types, layout.types) {
            #expect(zip(mine.shape.values, theirs.shape.values).allSatisfy { $0.sameBytes(as: $1) }, "\(mine.name)")
        }
    }

    @Test("D90: a layout line that is not one is an error at it, with the fix")
    func d90BadLayoutLineIsAnError() throws {
        let text = "versions:\n  1:\n    states: {}\n    context: {}\n    events: {}\n    runs: {}\n    layout:\n      State: {struct: {mode: \"kind Mode\"}}\n"
        let read = LockFile.read(Array(text.utf8), path: "x.machine.lock")
        #expect(read.lock == nil)
        let problem = try #require(read.diagnostics.first)
        #expect(read.diagnostics.count == 1)
        #expect(problem.location.line == 8)
        #expect(problem.message == "'kind Mode' is not a value of a layout: 'std T', 'spec T', 'type T', 'child M', 'optional V' or 'array V'")
        #expect(problem.fixIt?.contains("run `stateloop lock` at the version that shipped") == true)
    }

    @Test("D91: the readers of a version locked without its layout refuse its entries, naming the version and the fix")
    func d91VersionWithoutLayoutIsRefusedWithTheFix() throws {
        let lock = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("Drawer.machine.lock"), encoding: .utf8)
        let withoutLayout = String(lock[..<lock.range(of: "    layout:\n")!.lowerBound])
        let contents = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent("Drawer.machine.yml")))
        let output = GeneratorPipeline().generate(
            contents: contents, path: "Drawer.machine.yml", library: TestPaths.fixtureLibrary,
            lock: LockInput(path: "Drawer.machine.lock", contents: Array(withoutLayout.utf8)))
        let source = try #require(output.source, "\(output.diagnostics)")
        let refusal = "case 1: throw .invalid(offset: reader.offset, reason: \"version 1 is locked in Drawer.machine.lock without its journal layout: check out the spec of version 1, run `stateloop lock` on it (which adds the layout, D91), and build again\")"
        // In each of readState, readEvent and readRun; and no reader of version 1 is printed.
        #expect(source.components(separatedBy: refusal).count == 4)
        #expect(!source.contains("_readState_v1") && !source.contains("_migratedMode"))
    }
}

extension JournalLayout.Shape {
    /// An enum's case names (empty for a struct).
    var caseNames: [String] {
        if case .enumeration(let cases) = self { cases.map(\.name) } else { [] }
    }

    /// Every value it writes, in order: a struct's properties, each case's payload.
    var values: [JournalLayout.Value] {
        switch self {
        case .structure(let fields): fields.map(\.value)
        case .enumeration(let cases): cases.flatMap { $0.payload.map(\.value) }
        }
    }
}
