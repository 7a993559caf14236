// In-process effects and scripted runs of the hierarchical examples: Player (history, one-shot
// runs, final states), Microwave (nested modes, always:, onDone:, deep history) and Upload
// (parallel regions). The demo prints these traces; ExamplesTests pins them.
import Synchronization
import StateLoop

/// Saves nothing anywhere: remembers the sessions it was asked to save.
final class SessionStore: Player.Effects {
    let saved = Mutex<[Int]>([])

    func saveSession(_ request: Int) async {
        saved.withLock { $0.append(request) }
    }
}

/// Beeps by answering `beeped`; logs by remembering the line.
final class Kitchen: Microwave.Effects {
    let lines = Mutex<[String]>([])

    func beep(_ request: Int) async -> Microwave.BeepResult {
        .beeped
    }

    func log(_ request: String) async {
        lines.withLock { $0.append(request) }
    }
}

extension Examples {
    /// `active playing`: the active states, outermost first, as `isIn` reports them.
    static func configuration<Name: CaseIterable>(_ isIn: (Name) -> Bool) -> String {
        Name.allCases.filter(isIn).map { "\($0)" }.joined(separator: " ")
    }

    public static func player(clock: FastForwardClock = demoClock) async -> [String] {
        let store = SessionStore()
        let describe: @Sendable (Player.State) -> String = { state in
            "\(configuration(state.isIn)) sessions=\(state.sessions)\(state.runs.isEmpty ? "" : " runs=\(state.runs)")"
        }
        var trace = await Demo.trace(Player.system(effects: store, clock: clock), describe: describe) { machine in
            machine.send(.play)           // no history yet: active's initial, playing
            machine.send(.pause)
            machine.send(.stop)           // exit: saveSession(1); history records paused
            machine.send(.play)           // back to paused, from the history
            machine.send(.play)
            machine.send(.powerOff)       // the machine's own on:, into a top-level final state
            await machine.waitUntil { _ in false }  // the system finishes once the runs return
        }
        trace.append("saved \(store.saved.withLock { $0 })")
        return trace
    }

    public static func microwave() async -> [String] {
        let kitchen = Kitchen()
        let describe: @Sendable (Microwave.State) -> String = { state in
            "\(configuration(state.isIn)) seconds=\(state.seconds) log=\(state.log)\(state.runs.isEmpty ? "" : " runs=\(state.runs)")"
        }
        var trace = await Demo.trace(Microwave.system(effects: kitchen), describe: describe) { machine in
            machine.send(.addTime(seconds: 2))
            machine.send(.start)
            machine.send(.addTime(seconds: 0))    // every guard false: nothing happens
            machine.send(.open)                   // exits cooking; deep history records heating
            machine.send(.close)                  // back into cooking's heating
            machine.send(.tick)
            machine.send(.tick)                   // 0 seconds: always: -> done, onDone: -> idle, beep
            await machine.waitUntil { $0.log.last == "beeped" }
            machine.send(.unplug)
            await machine.waitUntil { _ in false }
        }
        trace.append("logged \(kitchen.lines.withLock { $0 })")
        return trace
    }

    public static func upload() async -> [String] {
        let describe: @Sendable (Upload.State) -> String = { state in
            "\(configuration(state.isIn)) sent=\(state.sent) log=\(state.log)"
        }
        return await Demo.trace(Upload.system(), describe: describe) { machine in
            machine.send(.chunk)
            machine.send(.pause)       // transfer pauses; working's own pause runs beside it
            machine.send(.chunk)       // paused: ignored
            machine.send(.resume)
            machine.send(.fail)        // checksum's own fail wins over working's (inner source)
            machine.send(.hashed)
            machine.send(.chunk)
            machine.send(.chunk)       // both regions final: onDone: -> finished
            await machine.waitUntil { _ in false }
        }
    }
}
