import StateLoop
import Synchronization
import Testing

/// `State.pendingSends` (Docs/Statecharts.md S127, S133, S134): the queue the generated reducer
/// delivers sends from. Its cost is counted, not timed: each read of a send's `number` or
/// `delay` is one step of the search.
@Suite struct PendingSendsTests {
    /// How often the delays of one test's sends were read (tests run in parallel).
    final class Reads: Sendable {
        let count = Mutex(0)
    }

    /// A send that counts how often its number and its delay are read.
    struct Counted: PendingSend {
        let storedNumber: Int
        let storedDelay: Duration
        let reads: Reads
        var number: Int {
            reads.count.withLock { $0 += 1 }
            return storedNumber
        }
        var delay: Duration {
            reads.count.withLock { $0 += 1 }
            return storedDelay
        }
        init(_ number: Int, delay: Duration = .seconds(1), reads: Reads = Reads()) {
            self.storedNumber = number
            self.storedDelay = delay
            self.reads = reads
        }
        static func == (a: Self, b: Self) -> Bool { a.storedNumber == b.storedNumber && a.storedDelay == b.storedDelay }
    }

    @Test("S134: the sends due with the last of n, delivered one by one, are taken off the front in order, in reads linear in n", arguments: [1_000, 4_000])
    func s134SendsDueTogetherAreTakenInLinearTime(_ count: Int) {
        let reads = Reads()
        var sends = PendingSends((0..<count).map { Counted($0, reads: reads) })
        var taken: [Int] = []
        while let send = sends.removeDue(through: count - 1) {
            taken.append(send.storedNumber)
            if send.storedNumber == count - 1 { break }
        }
        let read = reads.count.withLock { $0 }
        #expect(taken == Array(0..<count))
        #expect(sends.isEmpty)
        // Per delivery: a binary search for the due send's number, then its delay and the front's,
        // about n log n in all; a scan of the queue per delivery would be n²/2.
        let bound = count * (3 + 2 * (Int.bitWidth - count.leadingZeroBitCount))
        #expect(read <= bound, "\(read) reads of a number or a delay for \(count) sends")
    }

    @Test("S134: a send with a longer delay, sent first, stays; the shorter ones after it come first; S133: a send no longer pending is not found")
    func s134ALongerDelaySentEarlierStays() {
        var sends = PendingSends([Counted(0, delay: .seconds(9)), Counted(1), Counted(2), Counted(4)])
        #expect(sends.contains(number: 2) && !sends.contains(number: 3) && !sends.contains(number: 5))
        #expect(sends.removeDue(through: 2)?.number == 1)
        #expect(sends.removeDue(through: 2)?.number == 2)
        #expect(sends.removeDue(through: 2) == nil)
        #expect(sends.map(\.number) == [0, 4])
        sends.removeAll { $0.number == 0 }
        sends.append(Counted(5))
        #expect(sends.map(\.number) == [4, 5])
        #expect(sends.description == [Counted(4), Counted(5)].description)
    }
}

extension PendingSendsTests {
    /// A send as a journal writes it: its number, then its delay in whole seconds.
    struct Journaled: PendingSend, JournalCodable {
        let number: Int
        let delay: Duration
        func encode(to writer: inout JournalWriter) {
            writer.write(number)
            writer.write(Int(delay.components.seconds))
        }
        init(number: Int, delay: Duration = .seconds(1)) {
            self.number = number
            self.delay = delay
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            number = try reader.read()
            delay = .seconds(try reader.read() as Int)
        }
    }

    @Test("D125: pending sends read back from a journal as an array's bytes; ones whose numbers do not rise are refused as damaged")
    func d125PendingSendsMustRise() throws {
        let sends = PendingSends([Journaled(number: 2), Journaled(number: 5)])
        var writer = JournalWriter()
        writer.write(sends)
        var asArray = JournalWriter()
        asArray.write([Journaled(number: 2), Journaled(number: 5)])
        #expect(writer.bytes == asArray.bytes)
        var reader = JournalReader(writer.bytes)
        #expect(try PendingSends<Journaled>(from: &reader) == sends)

        var falling = JournalWriter()
        falling.write([Journaled(number: 5), Journaled(number: 2)])
        var back = JournalReader(falling.bytes)
        #expect(throws: JournalDecodingError.self) { _ = try PendingSends<Journaled>(from: &back) }
    }
}
