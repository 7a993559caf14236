// Inspector: the app side of `stateloop inspect` (Docs/Inspector.md I1-I29): attaches running
// systems and streams what they do to the inspector over one WebSocket, from a thread of its own.
//
// Invariants:
// - A draining thread only appends a step (event, state, branch ids, time) to its instance's
//   bounded buffer under that buffer's lock: no socket call, no dump, no lock held across I/O
//   (I10). Everything else (dumps, runs and timers, the replay check, JSON, the socket) happens
//   on the inspector's thread.
// - One thread and one connection per `Inspector`; they start with the first attached instance
//   and live as long as the process.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import StateLoop

/// A connection to `stateloop inspect`, shared by every system attached to it.
///
/// ```swift
/// let system = TrafficLight.system().inspected(TrafficLight.self)   // ws://127.0.0.1:4567/app
/// ```
///
/// Link it in debug builds only: an attached instance dumps every state it reaches. Nothing in
/// the app waits for the inspector: with none listening, the app runs on and the inspector's thread
/// tries again every `retryInterval` (I8, I9).
public final class Inspector: @unchecked Sendable {
    /// The default inspector: `STATELOOP_INSPECTOR_URL`, or `ws://127.0.0.1:4567/app`.
    public static let shared = Inspector(url: environmentURL() ?? defaultURL)

    /// Where `stateloop inspect` listens by default.
    public static let defaultURL = "ws://127.0.0.1:4567/app"

    /// The address messages go to; `nil` when the URL could not be read (then nothing is sent).
    let address: InspectorAddress?
    /// The most steps an instance keeps waiting for the inspector's thread (I11).
    public let bufferSize: Int
    /// How long the inspector's thread waits before it connects again.
    let retryInterval: Duration

    private let lock = PlatformLock()
    // Under `lock`:
    private var instances: [any InspectedInstanceProtocol] = []
    private var counters: [String: Int] = [:]
    private var threadStarted = false

    /// An inspector at `url` (`ws://HOST:PORT/PATH`; IPv4 or `localhost`).
    ///
    /// - Parameters:
    ///   - bufferSize: The most steps of one instance kept for the inspector's thread; when a
    ///     step arrives with the buffer full, the oldest is dropped and the inspector told how
    ///     many (I11).
    ///   - retryInterval: How long the inspector's thread waits before connecting again after a
    ///     failed attempt or a lost connection.
    public init(url: String, bufferSize: Int = 4096, retryInterval: Duration = .seconds(1)) {
        address = InspectorAddress(url: url)
        if address == nil {
            let message = "StateLoopInspector: \(url) is not a ws://HOST:PORT/PATH URL (e.g. \(Self.defaultURL)); nothing will be sent. Fix the URL given to Inspector(url:) or STATELOOP_INSPECTOR_URL.\n"
            printError(message)
        }
        self.bufferSize = max(bufferSize, 1)
        self.retryInterval = retryInterval
    }

    deinit {
        lock.deallocate()
    }

    private static func environmentURL() -> String? {
        getenv("STATELOOP_INSPECTOR_URL").map { String(cString: $0) }
    }

    /// Names a new instance of `machine` (`Door#1`, `Door#2`, ...) and follows it.
    func register<Machine: StateMachine & SendableMetatype>(
        _ machine: Machine.Type, initial: Machine.State, parent: String?
    ) -> InspectedInstance<Machine> {
        let machineName = Self.machineName(Machine.specFile)
        lock.lock()
        let number = counters[machineName, default: 0] + 1
        counters[machineName] = number
        let parentInstance = parent.flatMap { name in instances.first { $0.name == name } }
        lock.unlock()
        let instance = InspectedInstance<Machine>(
            name: "\(machineName)#\(number)", machine: machineName, parent: parentInstance,
            initial: initial, inspector: self)
        lock.lock()
        instances.append(instance)
        let startsThread = !threadStarted && address != nil
        threadStarted = true
        lock.unlock()
        if startsThread { startThread() }
        return instance
    }

    /// `Door` for `Door.machine.yml`.
    static func machineName(_ specFile: String) -> String {
        String(specFile.prefix { $0 != "." })
    }

    // MARK: The inspector's thread

    private func startThread() {
        let box = Unmanaged.passRetained(self)
        var thread = zeroThread()
        let started = pthread_create(&thread, nil, { context in
            #if canImport(Darwin)
            let inspector = Unmanaged<Inspector>.fromOpaque(context).takeRetainedValue()
            #else
            let inspector = Unmanaged<Inspector>.fromOpaque(context!).takeRetainedValue()
            #endif
            inspector.run()
            return nil
        }, box.toOpaque())
        if started != 0 {
            box.release()
            printError("StateLoopInspector: could not start the inspector's thread (error \(started)); nothing will be sent.\n")
        } else {
            pthread_detach(thread)
        }
    }

    /// Connects, sends what the instances buffered, and again, for ever.
    private func run() {
        guard let address else { return }
        let client = WebSocketClient()
        var messages: [InspectorMessage] = []
        while true {
            if !client.isOpen {
                if client.open(address) {
                    lock.lock()
                    let live = instances
                    lock.unlock()
                    // Every instance introduces itself again on a new connection (I9).
                    for instance in live { instance.connected() }
                } else {
                    forgetEnded(sent: false)
                    sleep(for: retryInterval)
                    continue
                }
            }
            lock.lock()
            let live = instances
            lock.unlock()
            var sentAny = false
            for instance in live {
                messages.removeAll(keepingCapacity: true)
                instance.takeMessages(into: &messages)
                for index in messages.indices {
                    guard client.send(text: messages[index].json) else {
                        // Told as dropped on the next connection (I9).
                        instance.lost(messages[index...])
                        break
                    }
                    sentAny = true
                }
                guard client.isOpen else { break }
            }
            if client.isOpen { forgetEnded(sent: true) }
            if !sentAny { sleep(for: .milliseconds(2)) }
        }
    }

    /// Forgets the instances that ended and whose messages are all `sent`, or (not `sent`) that
    /// ended while no inspector listens: their last steps go with them.
    private func forgetEnded(sent: Bool) {
        lock.lock()
        instances.removeAll { $0.isFinished(sent: sent) }
        lock.unlock()
    }

    private func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }
}

/// Writes `message` to standard error (file descriptor 2: no shared `FILE` to lock).
private func printError(_ message: String) {
    var message = message
    _ = message.withUTF8 { write(2, $0.baseAddress, $0.count) }
}

// The `pthread_t` that `pthread_create` writes into: an optional pointer on Darwin, an integer on Linux.
#if canImport(Darwin)
private func zeroThread() -> pthread_t? { nil }
#else
private func zeroThread() -> pthread_t { 0 }
#endif

extension Inspector: ChildWatcher {
    /// A watched parent's child machines are inspected by the same inspector (I6).
    @usableFromInline package func watcher<Machine: StateMachine & SendableMetatype>(for machine: Machine.Type) -> InstanceWatcher<Machine.State, Machine.Event> {
        { [self] initial, parent in register(Machine.self, initial: initial, parent: parent).watch }
    }
}

extension System {
    /// The same system, each instance of which streams its steps to `inspector` (Docs/Inspector.md):
    /// `TrafficLight.system().inspected(TrafficLight.self)`, `Door.system(effects: effects).inspected(Door.self)`.
    ///
    /// `machine` is the generated machine whose reducer the system runs: each instance runs its
    /// traced reducer, to tell the inspector the branches each step takes with their YAML lines.
    /// A child machine started by an instance's feedbacks shows as its child when its own system
    /// is inspected too (I6).
    public func inspected<Machine: StateMachine & SendableMetatype>(
        _ machine: Machine.Type, by inspector: Inspector = .shared
    ) -> System where Machine.State == State, Machine.Event == Event {
        watched(by: inspector.watcher(for: Machine.self))
    }
}
