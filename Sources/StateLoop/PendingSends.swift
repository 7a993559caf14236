/// A `send:` waiting to be delivered (Docs/Statecharts.md S127): what ``PendingSends`` orders and
/// finds sends by. The generated `Event.Send` of a machine that sends conforms.
public protocol PendingSend: Equatable, Sendable {
    /// How many sends ran before it since the start: rising in the order they ran.
    var number: Int { get }
    /// Its delay, counted from the step that sent it.
    var delay: Duration { get }
}

/// `State.pendingSends`: the sends not yet delivered nor cancelled, in the order they ran (S127).
/// It reads as an array does (`isEmpty`, `first`, `map`, `contains`, `== []`). Underneath, an
/// array whose front is taken by moving a start index, so that finding a send is a binary search
/// (their numbers rise) and delivering the oldest moves nothing: n sends due together are
/// delivered in time linear in n (S134). It is one reference, shared until a copy changes (copy
/// on write), and none when empty: every step of a machine that sends copies its state (`_old`),
/// and a copy of more than one field made that copy cost as much as the step (Benchmarks/README.md).
public struct PendingSends<Send: PendingSend>: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible, CustomReflectable
{
    /// The sends from `head` on; those before it were taken and wait to be dropped. Changed only
    /// when uniquely referenced, hence `@unchecked Sendable`, as the standard library's buffers.
    @usableFromInline final class Queue: @unchecked Sendable {
        @usableFromInline var storage: [Send]
        @usableFromInline var head = 0

        @inlinable init(_ storage: [Send]) {
            self.storage = storage
        }

        /// The storage without the sends already taken.
        @inlinable func dropTaken() {
            guard head > 0 else { return }
            storage.removeFirst(head)
            head = 0
        }

        /// Where in `storage` the send numbered `number` is: a binary search, the numbers rising.
        @inlinable func position(of number: Int) -> Int? {
            var low = head, high = storage.count
            while low < high {
                let middle = (low + high) / 2
                if storage[middle].number < number { low = middle + 1 } else { high = middle }
            }
            return low < storage.count && storage[low].number == number ? low : nil
        }
    }

    // Inlinable, as Array's members are: a machine's reducer is specialized for its own `Send`.
    @usableFromInline var queue: Queue?

    @inlinable public init() {
        queue = nil
    }

    @inlinable public init(arrayLiteral elements: Send...) {
        queue = elements.isEmpty ? nil : Queue(elements)
    }

    /// The sends `elements`, which must rise by `number`, as the machine sends them.
    @inlinable public init(_ elements: some Sequence<Send>) {
        let sends = Array(elements)
        queue = sends.isEmpty ? nil : Queue(sends)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { queue.map { $0.storage.count - $0.head } ?? 0 }
    @inlinable public subscript(position: Int) -> Send {
        guard let queue else { preconditionFailure("index \(position) of no pending send") }
        return queue.storage[queue.head + position]
    }

    /// The queue, this value's own: copied first when another value shares it.
    @inlinable mutating func writable() -> Queue {
        if !isKnownUniquelyReferenced(&queue) {
            queue = Queue(queue.map { Array($0.storage[$0.head...]) } ?? [])
        }
        return queue!
    }

    /// Sends `send`, whose number is above every pending one's.
    @inlinable public mutating func append(_ send: Send) {
        writable().storage.append(send)
    }

    /// Drops the sends for which `shouldBeRemoved` is true (`cancel:`, an `id:` reused).
    @inlinable public mutating func removeAll(where shouldBeRemoved: (Send) throws -> Bool) rethrows {
        guard queue != nil else { return }
        let queue = writable()
        queue.dropTaken()
        try queue.storage.removeAll(where: shouldBeRemoved)
        if queue.storage.isEmpty { self.queue = nil }
    }

    /// Whether the send numbered `number` is pending.
    @inlinable public func contains(number: Int) -> Bool {
        queue?.position(of: number) != nil
    }

    /// Takes off the next send that `._send(number)` delivers (S134): the first sent whose delay
    /// is no longer than that of send `number`, which is due no later, or send `number` itself;
    /// `nil` once send `number` is no longer pending. Steps between two calls may cancel or send.
    /// A binary search, then a walk over the sends before it with a longer delay, which stay.
    @inlinable public mutating func removeDue(through number: Int) -> Send? {
        guard contains(number: number) else { return nil }
        let queue = writable()
        guard let due = queue.position(of: number) else { return nil }
        let delay = queue.storage[due].delay
        var first = queue.head
        while first < due, queue.storage[first].delay > delay { first += 1 }
        let send = first == queue.head ? queue.storage[first] : queue.storage.remove(at: first)
        if first == queue.head { queue.head += 1 }
        if queue.head == queue.storage.count {
            self.queue = nil
        } else if queue.head > 16, queue.head * 2 > queue.storage.count {
            // The taken ones go once they are half of the storage: each is moved at most once more.
            queue.dropTaken()
        }
        return send
    }

    /// As an array of the sends prints.
    public var description: String { Array(self).description }

    /// The sends, as an array's children: the inspector's dumps show them so.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}

extension PendingSends: Equatable {
    /// Equal when they hold the same sends in the same order, however many were taken before.
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

extension PendingSends: JournalCodable where Send: JournalCodable {
    /// The bytes of an array of the sends (D27): a count, then each.
    @inlinable public func encode(to writer: inout JournalWriter) {
        writer.writeVarint(UInt64(count))
        for send in self { send.encode(to: &writer) }
    }

    public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let count = try reader.readCount()
        var sends: [Send] = []
        sends.reserveCapacity(count)
        for _ in 0..<count {
            let send = try Send(from: &reader)
            // The numbers rise (D125): a journal whose sends do not is damaged.
            if let last = sends.last, send.number <= last.number {
                throw .invalid(offset: reader.offset, reason: "pending send \(send.number) after send \(last.number): their numbers must rise")
            }
            sends.append(send)
        }
        self.init(sends)
    }
}
