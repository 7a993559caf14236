// StepBuffer: the bounded buffer between a draining thread and the inspector's thread: a ring
// that overwrites its oldest element when full and counts what it dropped (I11).
//
// Invariants:
// - It never holds more than `capacity` elements, so an instance's memory for the inspector is
//   bounded however slow (or absent) the reader.
// - Its storage grows to `capacity` slots and is then reused: a slot is written in place, so the
//   writer can reuse what the old element held (its arrays' storage) instead of allocating.
// - Not thread-safe: its owner guards it with a lock.

/// A ring of at most `capacity` elements, oldest dropped first.
struct StepBuffer<Element> {
    let capacity: Int
    private var storage: [Element?] = []
    /// The slot of the oldest element.
    private var head = 0
    private(set) var count = 0
    /// Elements dropped since the last `takeAll`.
    private var dropped = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    var isEmpty: Bool { count == 0 }

    /// Adds an element: `write` turns the slot's old content (`nil` while the ring grows, else
    /// an element already taken or about to be dropped) into the new element, in place.
    mutating func append(_ write: (inout Element?) -> Void) {
        if count == capacity {
            head = (head + 1) % capacity
            count -= 1
            dropped += 1
        }
        let slot = (head + count) % capacity
        if slot == storage.count { storage.append(nil) }
        write(&storage[slot])
        count += 1
    }

    /// Copies every element, oldest first, to the end of `out`, and empties the ring; returns how
    /// many elements were dropped since the last call.
    mutating func takeAll(into out: inout [Element]) -> Int {
        for offset in 0..<count { out.append(storage[(head + offset) % capacity]!) }
        head = (head + count) % capacity
        count = 0
        defer { dropped = 0 }
        return dropped
    }
}
