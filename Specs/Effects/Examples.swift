// One scripted run of each example machine, with its real (in-process) effects. The demo prints
// these traces; ExamplesTests pins them.
import StateLoop

/// The example machines of `Specs/`, each run from a short script.
public enum Examples {
    /// Name and run of every example, in the order the demo shows them.
    public static let all: [(name: String, run: @Sendable () async -> [String])] = [
        ("Counter", { await counter() }),
        ("PlayCatch", { await playCatch() }),
        ("TrafficLight", { await trafficLight() }),
        ("TCP", { await tcp() }),
        ("Keyboard", { await keyboard() }),
        ("SearchBox", { await searchBox() }),
        ("GitHubSearch", { await gitHubSearch() }),
        ("Movies", { await movies() }),
        ("SignIn", { await signIn() }),
        ("Player", { await player() }),
        ("Microwave", { await microwave() }),
        ("Upload", { await upload() }),
        ("Transfer", { await transfer() }),
        ("Downloader", { await downloader() }),
        ("Checkout", { await checkout() }),
    ]

    /// Timers run 100 times faster than the wall clock in the demo.
    public static let demoClock = FastForwardClock(speed: 100)

    public static func counter() async -> [String] {
        await Demo.trace(Counter.system(), describe: { "\($0.mode) count=\($0.count)" }) { machine in
            machine.send(.increment)
            machine.send(.increment)
            machine.send(.decrement)
            machine.send(.decrement)
            machine.send(.decrement)  // at zero: the guard's else branch ignores it
            machine.send(.increment)
            machine.send(.reset)
        }
    }

    public static func playCatch(clock: FastForwardClock = demoClock) async -> [String] {
        await Demo.trace(PlayCatch.system(clock: clock), describe: { "\($0.mode) catches=\($0.catches)" }) { machine in
            machine.send(.throwBall)
            machine.send(.throwBall)  // the machine has the ball: ignored
            await machine.waitUntil { $0.mode == .humanHasIt }  // thrown back after 1s
            machine.send(.throwBall)
            await machine.waitUntil { $0.mode == .humanHasIt }
        }
    }

    public static func trafficLight(clock: FastForwardClock = demoClock) async -> [String] {
        await Demo.trace(TrafficLight.system(clock: clock), describe: { "\($0.mode) cycles=\($0.cycles)" }) { machine in
            await machine.waitUntil { $0.mode == .green }  // after 4s of red
            machine.send(.pedestrianWaiting)               // cuts green short
            await machine.waitUntil { $0.mode == .red }    // after 1s of yellow
            machine.send(.powerFailed)
            machine.send(.pedestrianWaiting)               // flashing: ignored
            machine.send(.powerRestored)
        }
    }

    public static func tcp(clock: FastForwardClock = demoClock) async -> [String] {
        await Demo.trace(TCP.system(clock: clock), describe: { "\($0.mode) sent=\($0.sent) active=\($0.activeOpens)" }) { machine in
            machine.send(.passiveOpen)
            machine.send(.ack)          // listen answers no ack: the machine's `ignore: [segments]`
            machine.send(.syn)
            machine.send(.ack)
            machine.send(.send)
            machine.send(.passiveOpen)  // established: ignored through its group, `calls`
            machine.send(.close)
            machine.send(.ack)
            machine.send(.fin)
            machine.send(.abort)        // time-wait: the machine's own `on:`, before 2 MSL
            machine.send(.activeOpen)
            machine.send(.synAck)       // established's entry reads the step's event: an active open
        }
    }

    public static func keyboard() async -> [String] {
        let describe: @Sendable (Keyboard.State) -> String = { state in
            "\(state.mode) typed=\(state.typed) leds=\(state.ledUpdates)"
        }
        return await Demo.trace(Keyboard.system(), describe: describe) { machine in
            machine.send(.key(char: "a"))  // started in numOn and capsOff, its list `initial:`
            machine.send(.capsLock)        // raises ledsChanged, answered once by `connected`
            machine.send(.key(char: "b"))
            machine.send(.numLock)
            machine.send(.reset)           // the regions' own `initial:`: numOff, capsOff
            machine.send(.unplug)
            machine.send(.plugIn)          // the list again: Num Lock on
        }
    }

    public static func searchBox(clock: FastForwardClock = demoClock) async -> [String] {
        let suggestions = Suggestions(words: ["swift", "swiftly", "swim", "swing", "switch", "sword"])
        let describe: @Sendable (SearchBox.State) -> String = { state in
            "\(state.mode) query=\(state.query) results=\(state.results) searches=\(suggestions.searches)"
        }
        return await Demo.trace(SearchBox.system(effects: suggestions, clock: clock), describe: describe) { machine in
            machine.send(.typed(text: "s"))   // each keystroke replaces the pending `settled`...
            machine.send(.typed(text: "sw"))
            machine.send(.typed(text: "swi"))
            await machine.waitUntil { $0.isIn(.showing) }  // ...so one search, after the pause
            machine.send(.typed(text: "swif"))
            machine.send(.submitted)          // Return: searches now and cancels the pending `settled`
            await machine.waitUntil { $0.isIn(.showing) }
            machine.send(.typed(text: "swo"))
            machine.send(.cleared)            // cancels it too: nothing is searched
        }
    }

    public static func gitHubSearch(clock: FastForwardClock = demoClock) async -> [String] {
        let github = InMemoryGitHub(
            catalog: ["swift-nio", "swift-log", "vapor", "swift-collections", "swift-syntax", "swift-argument-parser", "hummingbird"],
            failOnce: [GitHub.pageURL(query: "swift", page: 2)!]
        )
        let describe: @Sendable (GitHubSearch.State) -> String = { state in
            "\(configuration(state.isIn)) results=\(state.results.count)\(state.nextPageURL == nil ? "" : " more")\(state.lastError.map { " error=\($0)" } ?? "")"
        }
        return await Demo.trace(GitHubSearch.system(effects: github, clock: clock), describe: describe) { machine in
            machine.send(.searchChanged(search: ""))       // empty: the guard's else branch ignores it
            machine.send(.searchChanged(search: "swift"))
            await machine.waitUntil { $0.isIn(.ready) }
            machine.send(.scrolledNearBottom)              // page 2 fails once...
            await machine.waitUntil { $0.isIn(.failed) }
            await machine.waitUntil { $0.isIn(.ready) }    // ...and is retried by the 5s timer
            machine.send(.scrolledNearBottom)              // no next page: ignored
            machine.send(.searchChanged(search: "vapor"))  // searching's own handler: starts over
            await machine.waitUntil { $0.search == "vapor" && $0.isIn(.ready) }
        }
    }

    public static func movies() async -> [String] {
        let catalog = MovieCatalog(titles: ["Alien", "Brazil", "Casablanca", "Dune", "Eraserhead"], failOnce: [2])
        let describe: @Sendable (Movies.State) -> String = { state in
            "\(state.mode) movies=\(state.movies)\(state.failure.map { " failure=\($0)" } ?? "")"
        }
        return await Demo.trace(Movies.system(effects: catalog), describe: describe) { machine in
            await machine.waitUntil { $0.mode == .browsing }
            machine.send(.scrolledNearBottom)
            await machine.waitUntil { $0.mode == .failed }
            machine.send(.retryTapped)
            await machine.waitUntil { $0.mode == .browsing }
            machine.send(.scrolledNearBottom)
            await machine.waitUntil { $0.mode == .browsing }
            machine.send(.scrolledNearBottom)              // the last page is shown: ignored
        }
    }

    public static func signIn() async -> [String] {
        let accounts = AccountService(passwords: ["ada@example.com": "analytical"])
        let describe: @Sendable (SignIn.State) -> String = { state in
            "\(state.mode)\(state.error.map { " error=\"\($0)\"" } ?? "")\(state.token.map { " token=\($0)" } ?? "")"
        }
        return await Demo.trace(SignIn.system(effects: accounts), describe: describe) { machine in
            machine.send(.emailChanged(email: "ada"))
            machine.send(.submitted)                       // not an email address
            machine.send(.emailChanged(email: "ada@example.com"))
            machine.send(.passwordChanged(password: "engine"))
            machine.send(.submitted)                       // too short
            machine.send(.passwordChanged(password: "difference"))
            machine.send(.submitted)
            await machine.waitUntil { $0.error == "Wrong password." }
            machine.send(.passwordChanged(password: "analytical"))
            machine.send(.submitted)
            await machine.waitUntil { $0.mode == .signedIn }
            machine.send(.signedOut)
        }
    }
}
