// InspectorBenchmarks: what attaching a system to the inspector costs the app (Docs/Inspector.md):
// the time the draining thread spends per event, and 10,000 events a second for 10 seconds
// against a local reader that keeps up, with the app's pace and peak memory.

import Foundation
import StateLoop
import StateLoopInspector

/// A local inspector that keeps up: answers the WebSocket handshake and reads and discards every
/// byte, on a thread of its own.
final class DiscardingReader: @unchecked Sendable {
    let port: UInt16

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else { fatalError("inspector benchmarks: cannot listen on 127.0.0.1") }
        port = UInt16(bigEndian: address.sin_port)
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var request: [UInt8] = []
                while !(request.count >= 4 && request.suffix(4).elementsEqual([13, 10, 13, 10])) {
                    guard recv(connection, &buffer, 1, 0) == 1 else { break }
                    request.append(buffer[0])
                }
                let response = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
                _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                while recv(connection, &buffer, buffer.count, 0) > 0 {}
                close(connection)
            }
        }.start()
    }

    var url: String { "ws://127.0.0.1:\(port)/app" }
}

/// `events` sends of `next` into the generated Flat machine, attached to `inspector` or not: the
/// CPU time of the sending thread, which reduces each event and hands on its step. (CPU time, not
/// wall time: the inspector's thread, dumping steps, shares the cores, and this figure is the
/// app's own share of the work.)
@inline(never)
func inspectedSendLoop(_ events: Int, inspector: Inspector?) -> Duration {
    let system = inspector.map { Flat.system().inspected(Flat.self, by: $0) } ?? Flat.system()
    let run = system.start { state in blackHole(state) }
    let start = threadCPUTime()
    for _ in 0..<events { run.send(.next) }
    let elapsed = threadCPUTime() - start
    run.stop()
    return elapsed
}

/// The CPU time the calling thread has used.
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// Sends `perSecond` events a second for `seconds` seconds, 1/100 of a second's worth at a time,
/// into a Flat machine attached to a local reader; returns the events a second it kept up.
func sustainedInspectedLoad(perSecond: Int, seconds: Int) -> Double {
    let reader = DiscardingReader()
    let run = Flat.system().inspected(Flat.self, by: Inspector(url: reader.url)).start { state in blackHole(state) }
    let clock = ContinuousClock()
    let start = clock.now
    let batch = perSecond / 100
    for tick in 1...(seconds * 100) {
        for _ in 0..<batch { run.send(.next) }
        let next = start + .milliseconds(10 * tick)
        if clock.now < next { Thread.sleep(forTimeInterval: Double((clock.now.duration(to: next)).components.attoseconds) / 1e18) }
    }
    let elapsed = clock.now - start
    run.stop()
    return Double(batch * seconds * 100) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// The inspector's child modes of this executable (see main.swift): the sustained load, printing
/// its pace or the process's peak resident memory in MiB.
enum InspectorChildMode {
    static let pace = "--child-inspected-pace"
    static let memory = "--child-inspected-memory"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, mode == pace || mode == memory else { return }
        let rate = sustainedInspectedLoad(perSecond: 10_000, seconds: 10)
        print(mode == pace ? rate : peakResidentMiB())
        exit(0)
    }
}

/// The time per event the draining thread spends on an attached instance, in nanoseconds.
func inspectorAddedNanoseconds() -> Double {
    Measurements.shared.value("inspector.added") {
        let reader = DiscardingReader()
        let inspector = Inspector(url: reader.url)
        let events = 200_000
        var plain: [Double] = []
        var attached: [Double] = []
        for run in 0...5 {
            let withoutInspector = nanoseconds(per: events, in: inspectedSendLoop(events, inspector: nil))
            let withInspector = nanoseconds(per: events, in: inspectedSendLoop(events, inspector: inspector))
            if run > 0 {  // run 0 warms up
                plain.append(withoutInspector)
                attached.append(withInspector)
            }
        }
        return median(attached) - median(plain)
    }
}

let inspectorBenchmarks: [Benchmark] = [
    // The app side's whole share of an attached step: one copy into the instance's buffer (I10).
    Benchmark(name: "inspector.attached.added_ns_per_event", goal: 5_000) { inspectorAddedNanoseconds() },
    // 10,000 events a second for 10 s into an attached instance whose reader keeps up: the pace
    // the app keeps, and its peak memory over an idle child's (the buffers are bounded, I11).
    Benchmark(name: "inspector.sustained.events_per_s", floor: 9_900) {
        do { return try runChild([InspectorChildMode.pace]) } catch { fatalError("\(error)") }
    },
    Benchmark(name: "inspector.sustained.peak_rss_over_idle_mib", goal: 32) {
        do { return try runChild([InspectorChildMode.memory]) - idlePeakMiB() } catch { fatalError("\(error)") }
    },
]
