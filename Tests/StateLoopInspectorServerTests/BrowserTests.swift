import Foundation
import StateLoopExamples
import StateLoopInspector
import StateLoopTestSupport
import Testing

/// The page in headless Chromium (Docs/Inspector.md I38–I43): `stateloop-inspect` serves it, an
/// app's WebSocket client (the browser's own `WebSocket`, on `ws://…/app`, in the same tab) sends
/// a recorded TrafficLight run step by step, and the test reads what the page shows. Screenshots
/// of each step go to `.build/inspector-screenshots/`.
@Suite(.serialized, .enabled(if: serverBuilt, "the page needs the server: build with --traits Inspector")) struct BrowserTests {
    static let screenshots = packageRoot.appending(path: ".build/inspector-screenshots")

    /// The page's panel of `instance`, as a CSS selector.
    static func panel(_ instance: String) -> String { #"[data-instance="\#(instance)"]"# }

    @Test("I38, I39, I40, I41, I43, I47, I49, I74, I79: live steps, time travel, the replay mismatch, a broken invariant, the export, a child, its loop and a journal, in Chromium")
    func i38ThePageInABrowser() async throws {
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        try await WebDriver.session(failureShot: Self.screenshots.appending(path: "failure.png")) { try await walkThrough(inspector, $0) }
    }

    private func walkThrough(_ inspector: RunningInspector, _ page: WebDriver) async throws {
        func shot(_ name: String) async throws { try await page.screenshot(to: Self.screenshots.appending(path: "\(name).png")) }
        let light = Self.panel("TrafficLight#1")
        /// The names of the states lit in `panel`'s diagram, sorted.
        func lit(_ panel: String) async throws -> [String] {
            let names = try await page.run("""
                return [...document.querySelectorAll('\(panel) .diagram g.active > title')].map(t => t.textContent).sort();
                """) as? [String]
            return names ?? []
        }

        try await page.open(inspector.page)
        try await page.wait("the page to connect", until: "return document.getElementById('status').textContent === 'connected';")
        try await shot("01-empty")

        // An app: the browser's WebSocket to /app, sending the recorded run one step at a time.
        try await page.run("window.app = new WebSocket('ws://' + location.host + '/app'); return true;")
        try await page.wait("the app's socket", until: "return window.app.readyState === 1;")
        let run = try trafficLightRun()
        func send(_ lines: [String]) async throws {
            try await page.run("for (const m of arguments[0]) window.app.send(m); return true;", [lines])
        }
        func seq(_ line: String) -> Int? { (line.firstMatch(of: /"seq": ([0-9]+)/)?.1).flatMap { Int($0) } }

        // I38: each step as it comes, live.
        try await send(run.filter { seq($0) == nil || seq($0) == 0 })
        try await page.wait("step 0", until: "return !!document.querySelector('\(light) .step[data-seq=\"0\"]') && !!document.querySelector('\(light) svg');")
        try await page.wait("red lit", until: "return !!document.querySelector('\(light) g.node.active');")
        #expect(try await lit(light) == ["red"])
        try await shot("02-initial-state")

        try await send(run.filter { seq($0) == 1 })
        try await page.wait("step 1", until: "return !!document.querySelector('\(light) .step[data-seq=\"1\"]');")
        #expect(try await lit(light) == ["green"])
        // I74: red's timer fired, as a test receives it.
        #expect(try await page.run("return document.querySelector('\(light) .step[data-seq=\"1\"] .event').textContent;") as? String == "timer: .red")
        #expect(try await page.run("return document.querySelector('\(light) [id=\"branch-3\"]').classList.contains('taken');") as? Bool == true)
        let diff = try await page.run("return [...document.querySelectorAll('\(light) .step[data-seq=\"1\"] .del, \(light) .step[data-seq=\"1\"] .ins')].map(e => e.textContent);") as? [String]
        #expect(diff == ["−   mode: .red,", "−   cycles: 0", "+   mode: .green,", "+   cycles: 1"])
        try await shot("03-step-1-live")

        for step in 2...5 { try await send(run.filter { seq($0) == step }) }
        try await page.wait("step 5", until: "return !!document.querySelector('\(light) .step[data-seq=\"5\"]');")
        #expect(try await lit(light) == ["red"])
        #expect(try await page.run("return document.querySelector('\(light) [id=\"branch-8\"]').classList.contains('taken');") as? Bool == true)
        let timeline = try await page.run("return [...document.querySelectorAll('\(light) .timeline .entry')].map(e => e.className.split(' ')[1]);") as? [String]
        #expect(timeline == ["step", "timer", "step", "timer", "timer", "step", "timer", "timer", "step", "timer", "timer", "step", "timer", "step", "timer"])
        #expect(try await page.run("return document.querySelector('\(light) .state').textContent;") as? String == "TrafficLight.State(\n  mode: .red,\n  cycles: 1\n)")
        try await shot("04-live-after-5-steps")

        // I43: a child machine gets its own panel, after its parent's.
        try await send([
            #"{"type":"child","instance":"TrafficLight#1","seq":5,"phase":"started","child":"Counter#1"}"#,
            #"{"type":"hello","protocol":1,"instance":"Counter#1","machine":"Counter","spec":"Counter.machine.yml","parent":"TrafficLight#1","journalVersion":null}"#,
            #"{"type":"step","instance":"Counter#1","seq":0,"time":0,"event":null,"branches":[],"state":"Counter.State(\n  mode: .counting,\n  count: 0\n)","configuration":["counting"]}"#,
            #"{"type":"step","instance":"Counter#1","seq":1,"time":2.5,"event":".increment","branches":[{"id":0,"line":16}],"state":"Counter.State(\n  mode: .counting,\n  count: 1\n)","configuration":["counting"]}"#,
        ])
        let counter = Self.panel("Counter#1")
        try await page.wait("the child's panel", until: "return !!document.querySelector('\(counter) g.node.active');")
        #expect(try await page.run("return [...document.querySelectorAll('.panel')].map(p => p.dataset.instance);") as? [String] == ["TrafficLight#1", "Counter#1"])
        #expect(try await lit(counter) == ["counting"])
        // I49: Counter's increment, a loop of counting, marked on both legs.
        #expect(try await page.run("return [...document.querySelectorAll('\(counter) g.edge.taken')].map(g => g.classList.contains('branch-0'));") as? [Bool]
            == [true, true])
        try await shot("05-parent-and-child")

        // I39: time travel, by a real click on step 2.
        try await page.click("\(light) .step[data-seq=\"2\"]")
        try await page.wait("step 2 shown", until: "return document.querySelector('\(light) .step.selected').dataset.seq === '2';")
        #expect(try await lit(light) == ["yellow"])
        #expect(try await page.run("return document.querySelector('\(light) .state').textContent;") as? String == "TrafficLight.State(\n  mode: .yellow,\n  cycles: 1\n)")
        #expect(try await page.run("return document.querySelector('\(light) button.live').classList.contains('on');") as? Bool == false)
        #expect(try await page.run("return document.querySelector('\(light) [id=\"branch-4\"]').classList.contains('taken');") as? Bool == true)
        try await shot("06-time-travel-to-step-2")

        // I41: steps 1 to 5 (click, shift-click) exported: the test ExamplesTests runs.
        try await page.click("\(light) .step[data-seq=\"1\"]")
        try await page.run("document.querySelector('\(light) .step[data-seq=\"5\"]').dispatchEvent(new MouseEvent('click', {shiftKey: true, bubbles: true})); return true;")
        try await page.click("\(light) button.export-button")
        try await page.wait("the export", until: "return document.querySelector('\(light) pre.export').textContent.length > 0;")
        #expect(try await page.run("return document.querySelector('\(light) pre.export').textContent;") as? String == exportedTrafficLightTest())
        try await shot("07-exported-test")

        // I40: a replay mismatch, loudly.
        try await send([#"{"type":"mismatch","instance":"TrafficLight#1","seq":5,"recorded":"TrafficLight.State(\n  mode: .red,\n  cycles: 1\n)","replayed":"TrafficLight.State(\n  mode: .red,\n  cycles: 2\n)"}"#])
        try await page.wait("the mismatch banner", until: "return !document.querySelector('\(light) .mismatch').hidden;")
        let banner = try await page.run("return document.querySelector('\(light) .mismatch').textContent;") as? String ?? ""
        #expect(banner.hasPrefix("Replay mismatch at step 5: the reducer gave a different state from the same state and event"))
        #expect(banner.contains("cycles: 2"))
        #expect(try await page.run("return document.querySelector('\(light) .step[data-seq=\"5\"]').classList.contains('bad');") as? Bool == true)
        try await shot("08-replay-mismatch")

        // I79: a step whose state broke an invariant is marked, and the invariant named after it.
        try await send([#"{"type":"invariant","instance":"TrafficLight#1","seq":4,"name":"fewCycles","expression":"cycles < 1","state":null,"line":7,"column":3}"#])
        try await page.wait("the broken step", until: "return !!document.querySelector('\(light) .step[data-seq=\"4\"].broken');")
        #expect(try await page.run("return document.querySelector('\(light) .step[data-seq=\"4\"] .broken-note').textContent;") as? String == "⚠ breaks fewCycles")
        #expect(try await page.run("return document.querySelector('\(light) .step[data-seq=\"3\"]').classList.contains('broken');") as? Bool == false)
        #expect(try await page.run("return document.querySelector('\(light) .entry.invariant').textContent;") as? String
            == "⚠ invariant 'fewCycles' broken at #4: cycles < 1  (TrafficLight.machine.yml:7)")
        try await shot("08b-broken-invariant")

        // I44, I46, I47: a durable Till's journal, read offline by another inspector, in the same tab.
        let offline = try RunningInspector(
            builtExecutable("stateloop-inspect"), ["--port", "0", "--journal", try await JournalTests.tillJournal(), "--spec", "Specs/Till.machine.yml"])
        try await page.open(offline.page)
        let till = Self.panel("till")
        try await page.wait("the journal's last step", until: "return !!document.querySelector('\(till) .step[data-seq=\"5\"]') && !!document.querySelector('\(till) g.active');")
        #expect(try await lit(till) == ["closing", "cluster_books"])
        let title = try await page.run("return document.querySelector('\(till) h2 .journal').textContent;") as? String
        #expect(title == "journal till.journal · states at its snapshots · replay check: Till.replayJournal")
        try await page.click("\(till) .step[data-seq=\"2\"]")
        try await page.wait("step 2 shown", until: "return document.querySelector('\(till) .step.selected').dataset.seq === '2';")
        #expect(try await lit(till) == [])
        #expect(try await page.run("return document.querySelector('\(till) .state').textContent;") as? String == "(the journal holds no state after this step: its snapshots do)")
        try await shot("09-journal-offline")
    }

    @Test("I38: a TrafficLight system attached with StateLoopInspector moves on the page as it runs")
    func i38ALiveSystem() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        try await WebDriver.session(failureShot: Self.screenshots.appending(path: "failure-live.png")) { page in
            try await page.open(inspector.page)
            try await page.wait("the page to connect", until: "return document.getElementById('status').textContent === 'connected';")
            let run = TrafficLight.system().inspected(TrafficLight.self, by: Inspector(url: "ws://127.0.0.1:\(inspector.port)/app")).start { _ in }
            // The instance's number counts the TrafficLights of this test process.
            let light = #"[data-instance^="TrafficLight#"]"#
            func lit() async throws -> [String] {
                try await page.run("return [...document.querySelectorAll('\(light) .diagram g.active > title')].map(t => t.textContent).sort();") as? [String] ?? []
            }
            try await page.wait("the initial state", until: "return !!document.querySelector('\(light) g.node.active');")
            #expect(try await lit() == ["red"])
            run.send(.powerFailed)
            try await page.wait("step 1", until: "return !!document.querySelector('\(light) .step[data-seq=\"1\"]');")
            #expect(try await lit() == ["flashing"])
            #expect(try await page.run("return document.querySelector('\(light) [id=\"branch-0\"]').classList.contains('taken');") as? Bool == true)
            run.send(.powerRestored)
            try await page.wait("step 2", until: "return !!document.querySelector('\(light) .step[data-seq=\"2\"]');")
            #expect(try await lit() == ["red"])
            // Red's timer: armed at the start, cancelled by the power failure, armed again.
            let timers = try await page.run("return [...document.querySelectorAll('\(light) .timeline .timer')].map(e => e.textContent.split(':')[0]);") as? [String]
            #expect(timers == ["◷ timer armed", "◷ timer cancelled", "◷ timer armed"])
            try await page.screenshot(to: Self.screenshots.appending(path: "10-live-system.png"))
            run.stop()
            try await page.wait("the bye", until: "return document.querySelector('\(light) .ended').textContent === 'stopped';")
            try await page.screenshot(to: Self.screenshots.appending(path: "11-live-system-stopped.png"))
        }
    }

    @Test("I66: a file:// document in Chromium can neither read /page, even with the token, nor attach to /app")
    func i66AForeignDocument() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        let evil = FileManager.default.temporaryDirectory.appending(path: "inspector-i66-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: evil) }
        // Each socket says whether it opened; the app's also tries to attach a fake instance.
        try """
            <!doctype html><title>evil</title><script>
            window.results = {};
            function attempt(name, url, onOpen) {
              const ws = new WebSocket(url);
              ws.onopen = () => { window.results[name] = "opened"; onOpen(ws); };
              ws.onmessage = () => { window.results[name] = "read"; };
              ws.onclose = () => { if (!window.results[name]) window.results[name] = "refused"; };
            }
            attempt("page", "ws://127.0.0.1:\(inspector.port)/page?token=\(inspector.token)", () => {});
            attempt("app", "ws://127.0.0.1:\(inspector.port)/app", ws => ws.send(JSON.stringify({type: "hello", protocol: 1, instance: "Fake#1", machine: "Fake", spec: "Fake.machine.yml", parent: null, journalVersion: null})));
            </script>
            """.write(to: evil, atomically: true, encoding: .utf8)
        try await WebDriver.session { page in
            try await page.open(evil)
            try await page.wait("both sockets", until: "return !!window.results.page && !!window.results.app;")
            #expect(try await page.run("return [window.results.page, window.results.app];") as? [String] == ["refused", "refused"])
            #expect(try await inspector.get("/stats").body == #"{"kept":0,"limitPerInstance":20000}"#)
            try await page.screenshot(to: Self.screenshots.appending(path: "12-foreign-document-refused.png"))
        }
    }

    @Test("I68: the page opened without the run's token, or with another's, says to open the printed address")
    func i68APageWithoutTheToken() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        try await WebDriver.session { page in
            for address in [inspector.base, URL(string: "?token=0123456789abcdef0123456789abcdef", relativeTo: inspector.base)!] {
                try await page.open(address)
                try await page.wait("the refusal", until: "return document.getElementById('status').textContent.startsWith('refused: open the address stateloop inspect printed');")
            }
            try await page.open(inspector.page)
            try await page.wait("the page to connect", until: "return document.getElementById('status').textContent === 'connected';")
        }
    }

    @Test("I65: the page keeps its last 20,000 messages of an instance and one note of all it dropped, at the start")
    func i65ThePageBound() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        try await WebDriver.session { page in
            try await page.open(inspector.page)
            try await page.wait("the page to connect", until: "return document.getElementById('status').textContent === 'connected';")
            // 20,500 steps of one instance, in batches of 250 as the server sends them (I63).
            let kept = try await page.run("""
                for (let from = 0; from < 20500; from += 250) {
                  const batch = [];
                  for (let seq = from; seq < from + 250; seq++) batch.push({ type: "step", instance: "Door#1", seq, event: ".open", diff: [], state: "S", branches: [], configuration: [] });
                  receiveBatch(batch);
                }
                const inst = instances.get("Door#1");
                return [inst.entries.length, inst.steps.size, inst.entries.filter(e => e.type === "dropped").length, inst.entries[0].count, inst.entries[0].by, inst.entries[1].seq];
                """) as? [Any]
            #expect(kept?.map { "\($0)" } == ["20001", "20000", "1", "500", "page", "500"])
        }
    }

    @Test("I77: while 250 steps come every 25 ms for a second, the page draws at most once every 100 ms; the last batch is drawn")
    func i77ThePageDrawsTenTimesASecondWhileMessagesStream() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        try await WebDriver.session { page in
            try await page.open(inspector.page)
            try await page.wait("the page to connect", until: "return document.getElementById('status').textContent === 'connected';")
            // `render` counted: the page's draws, however they are scheduled.
            _ = try await page.run("""
                window.draws = 0;
                const draw = render;
                window.drawTimes = [];
                render = function () { window.draws++; window.drawTimes.push(Math.round(performance.now())); draw(); };
                receiveBatch([{ type: "hello", instance: "Door#1", machine: "Door", spec: "Door.machine.yml" }]);
                let seq = 0;
                const start = performance.now();
                window.streaming = true;
                const feed = setInterval(() => {
                  const batch = [];
                  for (let i = 0; i < 250; i++, seq++) batch.push({ type: "step", instance: "Door#1", seq, event: ".open", diff: [], state: "S" + seq, branches: [], configuration: [] });
                  receiveBatch(batch);
                  if (performance.now() - start >= 1000) { clearInterval(feed); window.elapsed = performance.now() - start; window.last = seq - 1; window.streaming = false; }
                }, 25);
                return true;
                """)
            try await page.wait("the stream to end", until: "return window.streaming === false;")
            try await page.wait("the last step drawn", until: "return instances.get('Door#1').shown === window.last;")
            let counts = (try await page.run("return [window.draws, window.elapsed];") as? [Any])?.compactMap { Double("\($0)") }
            let (draws, elapsed) = (counts?.first ?? 0, counts?.last ?? 0)
            // One a 100 ms, the first at once and the last after the stream: one an animation frame was about 40.
            let times = try await page.run("return window.drawTimes.map(t => t - window.drawTimes[0]).join(' ');") as? String
            #expect(draws >= 3 && draws <= elapsed / 100 + 2, "\(draws) draws in \(elapsed) ms, at \(times ?? "")")
        }
    }
}
