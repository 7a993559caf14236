// The messages an inspector keeps: per machine instance, bounded, the oldest dropped first (I33).

import DequeModule
import Foundation
import StateLoop

/// Every message of every instance so far, in arrival order, and the pages listening for the
/// next ones. Each instance keeps its `hello` and at most `limit` other messages: past that the
/// oldest go, and a page that comes later is told how many with a `dropped` message from the
/// inspector itself (`"by": "inspector"`), as it is when the app's own buffer drops some (I33).
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

        /// Keeps `message` numbered `number`, a step with its diff, which it returns; the oldest
        /// go past `limit`.
        mutating func keep(_ message: InspectorMessage, number: Int, limit: Int) -> InspectorMessage {
            var message = message
            if message.type == "hello" {
                hello = (number, message)
                return message
            }
            // A timer's event as a test receives it, for the page (I74).
            if message.type == "step", let event = message["event"], let timer = TimerEvent.arguments(of: event) {
                message.set("timer", timer)
            }
            if message.type == "step", let lines = message.stateLines {
                // The first step of an instance (or the first after a gap) has nothing to compare with.
                if let before = lastState, message.seq != 0 {
                    message.set("diff", LineDiff.diff(before, lines) ?? [])
                } else {
                    message.set("diff", lines.map { "  " + $0 })
                }
                lastState = lines
            } else if message.type == "step" {
                // A step of a journal whose state no snapshot holds (I46): the next state has nothing to compare with.
                lastState = nil
            }
            messages.append((number, message))
            let excess = max(0, messages.count - limit)
            messages.removeFirst(excess)
            dropped += excess
            return message
        }
    }

    /// A page's messages not sent yet (I63), at most `pageLimit`: past that the oldest go, and the
    /// page is told how many of each instance's with a `dropped` note (I64). A hello is never
    /// dropped: without it the page could not show the instance.
    private struct Outbox {
        var messages: Deque<(instance: String, type: String, json: String)> = []
        var hellos: [String] = []
        var dropped: [String: Int] = [:]

        mutating func append(_ json: String, of instance: String, type: String, limit: Int) {
            messages.append((instance, type, json))
            guard messages.count > limit else { return }
            let gone = messages.removeFirst()
            if gone.type == "hello" { hellos.append(gone.json) } else { dropped[gone.instance, default: 0] += 1 }
        }
    }

    /// Who sends a message (I69): an app's `/app` connection, which `connect()` names, or the
    /// inspector itself (a journal read offline).
    public enum Sender: Hashable, Sendable {
        /// The inspector itself: what it read from a journal, which no connection may take.
        case inspector
        /// One `/app` connection, for as long as it is open.
        case connection(UUID)
    }

    private var logs: [String: Log] = [:]
    /// Who owns each instance: the sender of its first message, while that sender lives (I69).
    private var owners: [String: Sender] = [:]
    /// Numbers messages in arrival order across instances.
    private var received = 0
    /// The most messages a page may have waiting to be sent (I64).
    public nonisolated let pageLimit: Int
    private var pages: [UUID: Outbox] = [:]

    public init(limit: Int = 20_000, pageLimit: Int = 20_000) {
        precondition(limit > 0, "the inspector must keep at least one message per instance")
        precondition(pageLimit > 0, "a page must be able to wait for at least one message")
        self.limit = limit
        self.pageLimit = pageLimit
    }

    /// Keeps `message` (a step with its diff) and sends it to every page.
    public func receive(_ message: InspectorMessage) {
        owners[message.instance] = owners[message.instance] ?? .inspector
        keep(message)
    }

    private func keep(_ message: InspectorMessage) {
        received += 1
        // In place: a copy of the log would copy every message it keeps, at each message (I62).
        // The pages listening have the messages it drops: only a page that comes later is told (I33).
        let kept = logs[message.instance, default: Log()].keep(message, number: received, limit: limit)
        broadcast(kept.json, of: message.instance, type: kept.type)
    }

    /// Reads one text frame of an app sent by `sender`; a frame that is no message, or a message
    /// of an instance another sender owns (I69), is answered by an error.
    public func receive(text: String, from sender: Sender = .inspector) throws(InspectorError) {
        let message = try InspectorMessage(text: text)
        if let owner = owners[message.instance], owner != sender { throw .taken(message.instance) }
        owners[message.instance] = sender
        keep(message)
    }

    /// A new `/app` connection, which owns the instances it names first (I69).
    public func connect() -> Sender {
        .connection(UUID())
    }

    /// `sender`'s connection ended: the instances it owned are free for the next that names them.
    public func disconnect(_ sender: Sender) {
        owners = owners.filter { $0.value != sender }
    }

    /// The inspector's own note that it dropped `count` messages of `instance` (I33).
    private func droppedNotice(_ instance: String, _ count: Int) -> String {
        (try? InspectorMessage(object: ["type": "dropped", "instance": instance, "count": count, "by": "inspector"]))!.json
    }

    private func broadcast(_ json: String, of instance: String, type: String) {
        for page in pages.indices { pages.values[page].append(json, of: instance, type: type, limit: pageLimit) }
    }

    /// A new page: its id, and every message kept so far, as `history()` gives them; the new ones
    /// wait for it from now on, to be taken with `take`.
    public func subscribe() -> (id: UUID, history: [String]) {
        let id = UUID()
        pages[id] = Outbox()
        return (id, history())
    }

    /// The messages waiting for page `id`, oldest first, and none left waiting (I63): the hellos it
    /// would have missed first, then a `dropped` note per instance that lost some (I64). Nil once
    /// the page is gone.
    public func take(_ id: UUID) -> [String]? {
        guard let outbox = pages[id] else { return nil }
        pages[id] = Outbox()
        let notes = outbox.dropped.sorted { $0.key < $1.key }.map { droppedNotice($0.key, $0.value) }
        return outbox.hellos + notes + outbox.messages.map(\.json)
    }

    public func unsubscribe(_ id: UUID) {
        pages.removeValue(forKey: id)
    }

    /// Messages as one frame to a page: a JSON array of them (I63).
    public nonisolated static func frame(_ messages: some Collection<String>) -> String {
        "[" + messages.joined(separator: ",") + "]"
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
