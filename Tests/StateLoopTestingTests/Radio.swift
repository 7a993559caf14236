// Radio: a hand-written machine that conforms to `StateMachine`, to show that the harness drives
// any reducer, with one effect of every shape the harness knows.

import StateLoop

/// A radio: tuning loads a station's tracks (a request), a ready radio prefetches them (a set),
/// playing streams ticks and sends a beacon (a stream and a fire-and-forget run), playing and
/// switching off log (one-shot runs), and a failed radio retries after 5 seconds (a timer).
enum Radio: StateMachine {
    enum Mode: Hashable, Sendable {
        case idle, tuning, ready, playing, failed, off
    }
    typealias StateName = Mode

    struct State: Equatable, Sendable {
        var mode: Mode = .idle
        var station = ""
        var tracks: [String] = []
        /// The tracks `prefetch` still runs for in `ready`, one run each.
        var prefetching: Set<Int> = []
        var seconds = 0
        var error: String?
        /// Bookkeeping, written only by `reduce`: how many times a state was entered (the timer's
        /// event carries it), and the one-shot runs the last step queued.
        var _entries = 0
        var runs: [Call] = []
    }

    enum Event: Equatable, Sendable {
        case tune(String)
        case loaded([String])
        case loadFailed(String)
        case prefetched(Int)
        case play
        case tick(Int)
        case signalLost
        case stop
        case off
        case _timer(entry: Int)
    }

    enum Call: Equatable, Sendable {
        /// A request, in `tuning`.
        case load(String)
        /// One run per element of `prefetching`, in `ready`.
        case prefetch(Int)
        /// A stream, in `playing`.
        case ticks(String)
        /// A fire-and-forget run, in `playing`.
        case beacon(String)
        /// A one-shot run, queued by `play` and `off`.
        case log(String)
    }

    static let specFile = "Radio.machine.yml"

    static let transitions = [
        "idle --tune--> tuning", "tuning --tune--> tuning", "tuning --loaded--> ready",
        "tuning --loadFailed--> failed", "ready --prefetched--> ready", "ready --play--> playing",
        "playing --tick--> playing", "playing --signalLost--> failed", "playing --stop--> ready",
        "playing --tune--> (ignored)", "failed --tune--> tuning", "failed --after 5s--> tuning",
        "* --off--> off",
    ].enumerated().map { id, description in
        TransitionInfo(id: id, line: 10 + 2 * id, column: 7, description: description)
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) {
        guard !isDone(state) else { return }
        state.runs = []
        func enter(_ mode: Mode, by id: Int) {
            trace.take(id)
            state.mode = mode
            state._entries += 1
        }
        switch (state.mode, event) {
        case (.idle, .tune(let station)):
            state.station = station
            enter(.tuning, by: 0)
        case (.tuning, .tune(let station)):
            state.station = station
            enter(.tuning, by: 1)
        case (.tuning, .loaded(let tracks)):
            state.tracks = tracks
            state.prefetching = Set(tracks.indices)
            enter(.ready, by: 2)
        case (.tuning, .loadFailed(let error)):
            state.error = error
            enter(.failed, by: 3)
        case (.ready, .prefetched(let track)):
            trace.take(4)
            state.prefetching.remove(track)
        case (.ready, .play):
            state.runs = [.log("play")]
            state.seconds = 0
            enter(.playing, by: 5)
        case (.playing, .tick(let seconds)):
            trace.take(6)
            state.seconds = seconds
        case (.playing, .signalLost):
            state.error = "signal lost"
            enter(.failed, by: 7)
        case (.playing, .stop):
            enter(.ready, by: 8)
        case (.playing, .tune):
            trace.take(9)
        case (.failed, .tune(let station)):
            state.station = station
            state.error = nil
            enter(.tuning, by: 10)
        case (.failed, ._timer(let entry)) where entry == state._entries:
            state.error = nil
            enter(.tuning, by: 11)
        case (_, .off):
            state.runs = [.log("off")]
            enter(.off, by: 12)
        default:
            break
        }
    }

    static func runs(in state: State) -> [EffectRequest<Call>] {
        var runs = [EffectRequest<Call>]()
        switch state.mode {
        case .tuning:
            runs.append(.init(call: .load(state.station), shape: .answer))
        case .ready:
            runs += state.prefetching.sorted().map { .init(call: .prefetch($0), shape: .answer) }
        case .playing:
            runs.append(.init(call: .ticks(state.station), shape: .stream))
            runs.append(.init(call: .beacon(state.station), shape: .fireAndForget))
        case .idle, .failed, .off:
            break
        }
        return runs + state.runs.map { .init(call: $0, shape: .fireAndForget, isOneShot: true) }
    }

    static func result(_ event: Event, of call: Call) -> EffectResultKind? {
        switch (call, event) {
        case (.load, .loaded), (.ticks, .tick): .result
        case (.prefetch(let track), .prefetched(let done)) where track == done: .result
        case (.load, .loadFailed), (.ticks, .signalLost): .failure
        default: nil
        }
    }

    static func timers(in state: State) -> [ArmedTimer<StateName, Event>] {
        guard state.mode == .failed else { return [] }
        return [ArmedTimer(state: .failed, index: 0, delay: .seconds(5), event: ._timer(entry: state._entries))]
    }

    static func copyBookkeeping(from source: State, to state: inout State) {
        state._entries = source._entries
        state.runs = source.runs
    }

    static func isDone(_ state: State) -> Bool {
        state.mode == .off
    }
}
