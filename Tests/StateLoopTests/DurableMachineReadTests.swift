import StateLoop
import Testing

/// The readers a durable system reads a journal's values with (Docs/Durability.md D59, D60), on
/// a hand-written counter at version 2.
@Suite struct DurableMachineReadTests {
    /// A counter whose journal holds an `Int` state and `add` events.
    enum Counter: DurableMachine {
        enum Event: JournalCodable, Equatable, Sendable {
            case add(Int)
            func encode(to writer: inout JournalWriter) {
                if case .add(let amount) = self { writer.write(amount) }
            }
            init(from reader: inout JournalReader) throws(JournalDecodingError) { self = .add(try reader.read(Int.self)) }
        }
        typealias State = Int
        typealias Call = Never
        typealias StateName = String
        typealias Run = NoRun

        static let journalVersion = 2
        static let specFile = "Counter.machine.yml"
        static let transitions = [TransitionInfo(id: 0, line: 1, column: 1, description: "counting --add--> counting")]
        static func reduce(_ state: inout Int, _ event: Event) {
            if case .add(let amount) = event { state += amount }
        }
        static func reduce(_ state: inout Int, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
        static func pendingRuns(in state: Int) -> (queued: Int, runs: [NoRun]) { (0, []) }
        static func runs(in state: Int) -> [EffectRequest<Never>] { [] }
        static func result(_ event: Event, of call: Never) -> EffectResultKind? {}
        static func timers(in state: Int) -> [ArmedTimer<String, Event>] { [] }
        static func copyBookkeeping(from source: Int, to state: inout Int) {}
        static func isDone(_ state: Int) -> Bool { false }
    }

    /// `[7][add 5]`: a value before the ones read, so that offsets are checked too.
    static let bytes: [UInt8] = {
        var writer = JournalWriter()
        writer.write(7)
        writer.write(Counter.Event.add(5))
        return writer.bytes
    }()

    @Test("D59: the current version's values are read as they are; a newer version's are refused before any byte is read")
    func d59CurrentVersionReadsNewerIsRefused() throws {
        var reader = JournalReader(Self.bytes)
        #expect(try Counter.readState(from: &reader, version: 2) == 7)
        #expect(try Counter.readEvent(from: &reader, version: 2) == .add(5))
        #expect(reader.isAtEnd)

        var newer = JournalReader(Self.bytes)
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "written by version 3 of the spec, newer than this build's version 2: open it with a build of version 3 or later")) {
            try Counter.readState(from: &newer, version: 3)
        }
        #expect(newer.offset == 0)
    }

    @Test("D60: an older version's values are refused, naming the version without a reader")
    func d60OlderVersionWithoutReaderIsRefused() throws {
        var reader = JournalReader(Self.bytes)
        _ = try Counter.readState(from: &reader, version: 2)
        #expect(throws: JournalDecodingError.invalid(offset: 1, reason: "written by version 1 of the spec, and this build of version 2 has no reader of version 1")) {
            try Counter.readEvent(from: &reader, version: 1)
        }
        #expect(reader.offset == 1)
    }
}
