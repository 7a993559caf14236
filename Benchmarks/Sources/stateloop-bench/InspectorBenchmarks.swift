// InspectorBenchmarks: what attaching a system to the inspector costs the app (Docs/Inspector.md):
// the time the draining thread spends per event, and 10,000 events a second for 10 seconds
// against a local reader that keeps up, with the app's pace and peak memory; then the same load
// against the release build of `stateloop-inspect` with its page open in headless Chromium
// (issue 22's figure: the app, the page and the server, `inspector.page.`).

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

/// Calls `send` `perSecond` times a second for `seconds` seconds, 1/100 of a second's worth at a
/// time; returns the calls a second it kept up and the CPU time of the calling thread per call.
func pacedSends(perSecond: Int, seconds: Int, _ send: () -> Void) -> (perSecond: Double, cpuNanoseconds: Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = threadCPUTime()
    let batch = perSecond / 100
    for tick in 1...(seconds * 100) {
        for _ in 0..<batch { send() }
        let next = start + .milliseconds(10 * tick)
        if clock.now < next { Thread.sleep(forTimeInterval: Double((clock.now.duration(to: next)).components.attoseconds) / 1e18) }
    }
    let cpu = threadCPUTime() - cpuStart
    let elapsed = clock.now - start
    let count = batch * seconds * 100
    return (Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18), nanoseconds(per: count, in: cpu))
}

/// Sends 10,000 events a second for 10 seconds into a Flat machine attached to a local reader;
/// returns the events a second it kept up.
func sustainedInspectedLoad() -> Double {
    let reader = DiscardingReader()
    let run = Flat.system().inspected(Flat.self, by: Inspector(url: reader.url)).start { state in blackHole(state) }
    let paced = pacedSends(perSecond: 10_000, seconds: 10) { run.send(.next) }
    run.stop()
    return paced.perSecond
}

/// The app of the page's figures (Scripts/inspector-load.py runs it): a Flat machine attached to the
/// inspector at `url` with `System.inspected`, sent 10,000 events a second for 10 seconds. Prints its
/// pace, the CPU time per event the attachment added to the sending thread (which drains: it
/// reduces and hands on each step) over the same events not attached, and its last step's seq;
/// then waits for its standard input to close (the page has caught up), stops, and prints its
/// peak resident memory in MiB.
func inspectedPageApp(url: String) {
    let events = 200_000
    _ = inspectedSendLoop(events, inspector: nil)  // warms up
    let plain = nanoseconds(per: events, in: inspectedSendLoop(events, inspector: nil))
    let run = Flat.system().inspected(Flat.self, by: Inspector(url: url)).start { state in blackHole(state) }
    let paced = pacedSends(perSecond: 10_000, seconds: 10) { run.send(.next) }
    // Seq 0 is the initial state; each event reduced makes the next step (I2).
    FileHandle.standardOutput.write(Data("\(paced.perSecond) \(paced.cpuNanoseconds - plain) \(10_000 * 10)\n".utf8))
    while readLine() != nil {}
    run.stop()
    print(peakResidentMiB())
}

/// The inspector's child modes of this executable (see main.swift): the sustained load, printing
/// its pace or the process's peak resident memory in MiB.
enum InspectorChildMode {
    static let pace = "--child-inspected-pace"
    static let memory = "--child-inspected-memory"
    /// `--child-inspected-page URL`: the app of the page's figures (`inspectedPageApp`).
    static let page = "--child-inspected-page"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, [pace, memory, page].contains(mode) else { return }
        if mode == page {
            guard arguments.count == 3 else { fatalError("usage: stateloop-bench \(page) ws://HOST:PORT/app") }
            inspectedPageApp(url: arguments[2])
        } else {
            let rate = sustainedInspectedLoad()
            print(mode == pace ? rate : peakResidentMiB())
        }
        exit(0)
    }
}

/// The page's figures, measured once: Scripts/inspector-load.py runs the release build of
/// `stateloop-inspect` (built here first, with the Inspector trait, in the StateLoop package's
/// `.build`), opens its page in headless Chromium, runs this executable as the app
/// (`inspectedPageApp`) and prints one `name value` line per figure.
let pageFigures: [String: Double] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    guard FileManager.default.fileExists(atPath: root.appending(path: "Scripts/inspector-load.py").path) else {
        fatalError("inspector.page: the StateLoop sources are not at \(root.path), where this executable was built")
    }
    let log = root.appending(path: ".build/inspector-page-build.log")
    try? FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["swift", "build", "-c", "release", "--traits", "Inspector", "--product", "stateloop-inspect"]
    build.currentDirectoryURL = root
    build.standardOutput = try? FileHandle(forWritingTo: log)
    build.standardError = build.standardOutput
    do { try build.run() } catch { fatalError("inspector.page: cannot run swift build: \(error)") }
    build.waitUntilExit()
    guard build.terminationStatus == 0 else { fatalError("inspector.page: the release build of stateloop-inspect failed: see \(log.path)") }

    let load = Process()
    load.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    load.arguments = ["python3", root.appending(path: "Scripts/inspector-load.py").path,
                      "--server", root.appending(path: ".build/release/stateloop-inspect").path, "--app", selfExecutable.path]
    load.currentDirectoryURL = root
    let output = Pipe()
    load.standardOutput = output
    do { try load.run() } catch { fatalError("inspector.page: cannot run Scripts/inspector-load.py: \(error)") }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    load.waitUntilExit()
    guard load.terminationStatus == 0 else { fatalError("inspector.page: Scripts/inspector-load.py failed (\(load.terminationStatus)): \(text)") }
    return text.split(separator: "\n").reduce(into: [:]) { figures, line in
        let parts = line.split(separator: " ")
        if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
    }
}()

/// The page's figure `name`, which Scripts/inspector-load.py must have printed.
func pageFigure(_ name: String) -> Double {
    guard let value = pageFigures[name] else { fatalError("inspector.page: Scripts/inspector-load.py printed no \(name)") }
    return value
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
    // The same load against the release build of stateloop-inspect, its page open in headless
    // Chromium (issue 22: "the page keeps up with 10,000 events per second for 10 seconds without
    // the app slowing or its memory growing past the bound").
    Benchmark(name: "inspector.page.app.events_per_s", floor: 9_900) { pageFigure("app_events_per_s") },
    Benchmark(name: "inspector.page.app.added_ns_per_event", goal: 5_000) { pageFigure("app_added_ns_per_event") },
    Benchmark(name: "inspector.page.app.peak_rss_over_idle_mib", goal: 32) { pageFigure("app_peak_rss_mib") - idlePeakMiB() },
    Benchmark(name: "inspector.page.lag_ms", goal: 1_000) { pageFigure("page_lag_ms") },
    Benchmark(name: "inspector.page.longest_frame_gap_ms", goal: 200) { pageFigure("page_longest_frame_gap_ms") },
    Benchmark(name: "inspector.page.server.rss_mib", goal: 256) { pageFigure("server_rss_mib") },
    Benchmark(name: "inspector.page.server.rss_growth_second_half_mib", goal: 16) { pageFigure("server_rss_growth_second_half_mib") },
    // Issue 30, 4.4: how many of the app's steps reached the page (the rest the app's or the
    // server's buffer dropped), where the CPU went, and the load the run had: a figure of this
    // group means nothing without it (run it beside `stress --cpu 4` for a loaded machine).
    Benchmark(name: "inspector.page.received_steps_ratio", floor: 0.99) { (pageFigure("page_received_messages") - 1) / (pageFigure("app_steps") + 1) },
    Benchmark(name: "inspector.page.cpu_s.server") { pageFigure("cpu_s_server") },
    Benchmark(name: "inspector.page.cpu_s.browser") { pageFigure("cpu_s_browser") },
    Benchmark(name: "inspector.page.cpu_s.app") { pageFigure("cpu_s_app") },
    Benchmark(name: "inspector.page.load_average") { pageFigure("load_average") },
]
