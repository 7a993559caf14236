// The messages an inspector keeps: per machine instance, bounded, the oldest dropped first (I33).

import DequeModule
import Foundation
import StateLoop

/// Every message of every instance so far, in arrival order, and the pages listening for the
/// next ones. Each instance keeps its `hello` and at most `limit` other messages: past that the
/// oldest go, and the page is told how many with a `dropped` message from the inspector itself
/// (`"by": "inspector"`), as it is when the app's own buffer drops some (I33).
///
/// A step is stored with its `diff`: the `LineDiff` of the state before it and the state after it
/// (`−`/`+` lines, computed here once so that every page shows the harness's own diff; I32).
public actor InspectorStore {
    /// The most messages kept per instance besides its hello.
    public nonisolated let limit: Int

    private struct Log {
        var hello: (number: Int, message: InspectorMessage)?
        var messages: Deque<(number: Int, message: InspectorMessage)> = []
        /// The lines of the last step's state, for the next step's diff.
        var lastState: [String]?
        /// How many of this instance's messages the inspector dropped, in all.
        var dropped = 0
    }

    private var logs: [String: Log] = [:]
    /// Numbers messages in arrival order across instances.
    private var received = 0
    private var pages: [UUID: AsyncStream<String>.Continuation] = [:]

    public init(limit: Int = 20_000) {
        precondition(limit > 0, "the inspector must keep at least one message per instance")
        self.limit = limit
    }

    /// Keeps `message` (a step with its diff) and sends it to every page.
    public func receive(_ message: InspectorMessage) {
        var message = message
        var log = logs[message.instance] ?? Log()
        received += 1
        if message.type == "hello" {
            log.hello = (received, message)
        } else {
            if message.type == "step", let lines = message.stateLines {
                // The first step of an instance (or the first after a gap) has nothing to compare with.
                if let before = log.lastState, message.seq != 0 {
                    message.set("diff", LineDiff.diff(before, lines) ?? [])
                } else {
                    message.set("diff", lines.map { "  " + $0 })
                }
                log.lastState = lines
            } else if message.type == "step" {
                // A step of a journal whose state no snapshot holds (I46): the next state has nothing to compare with.
                log.lastState = nil
            }
            log.messages.append((received, message))
            if log.messages.count > limit {
                let excess = log.messages.count - limit
                log.messages.removeFirst(excess)
                log.dropped += excess
                logs[message.instance] = log
                broadcast(droppedNotice(message.instance, excess))
            }
        }
        logs[message.instance] = log
        broadcast(message.json)
    }

    /// Reads one text frame of an app; a frame that is no message is answered by an error.
    public func receive(text: String) throws(InspectorError) {
        receive(try InspectorMessage(text: text))
    }

    /// The inspector's own note that it dropped `count` messages of `instance` (I33).
    private func droppedNotice(_ instance: String, _ count: Int) -> String {
        (try? InspectorMessage(object: ["type": "dropped", "instance": instance, "count": count, "by": "inspector"]))!.json
    }

    private func broadcast(_ json: String) {
        for page in pages.values { page.yield(json) }
    }

    /// Every message kept so far, in arrival order, each instance's hello before the rest of it
    /// and a `dropped` note where the inspector dropped some; then every new one, as it comes.
    public func subscribe() -> (id: UUID, messages: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4 * limit))
        for json in history() { continuation.yield(json) }
        let id = UUID()
        pages[id] = continuation
        return (id, stream)
    }

    public func unsubscribe(_ id: UUID) {
        pages.removeValue(forKey: id)?.finish()
    }

    /// The stored messages as pages receive them first.
    public func history() -> [String] {
        var entries: [(number: Int, json: String)] = []
        for (instance, log) in logs {
            if let hello = log.hello { entries.append((hello.number, hello.message.json)) }
            if log.dropped > 0, let first = log.messages.first {
                // Just before the oldest message kept: where the gap is.
                entries.append((first.number, droppedNotice(instance, log.dropped)))
            }
            entries += log.messages.map { ($0.number, $0.message.json) }
        }
        // A stable sort: the dropped note stays before the message of the same number.
        return entries.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element.json)
    }

    /// The hello and the kept messages of `instance`, oldest first.
    public func messages(of instance: String) throws(InspectorError) -> (hello: InspectorMessage, messages: [InspectorMessage]) {
        guard let log = logs[instance], let hello = log.hello else { throw .unknownInstance(instance) }
        return (hello.message, log.messages.map(\.message))
    }

    /// How many messages are kept, in all (the hellos included): the memory bound of I33.
    public var count: Int {
        logs.values.reduce(0) { $0 + $1.messages.count + ($1.hello == nil ? 0 : 1) }
    }
}
