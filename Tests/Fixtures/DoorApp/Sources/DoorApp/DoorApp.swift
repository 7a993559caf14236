import StateLoop

struct DoorEffects: Door.Effects {               // the compiler insists on every effect
    func chime(_ request: Int) async -> Door.ChimeResult {
        .chimed(message: "ding #\(request)")
    }
}

@main
struct DoorApp {
    static func main() async {
        let system = Door.system(effects: DoorEffects()).observingEvents { event, state in
            print("\(event) -> \(state.mode) openings=\(state.openings) chimes=\(state.chimes)")
        }
        let (run, states) = system.start()
        run.send(.open)
        for await state in states where !state.chimes.isEmpty {
            run.send(.close)
            run.send(.lock(code: 42))
            run.send(.unlock(code: 7))           // wrong code: the guard's else branch ignores it
            run.send(.unlock(code: 42))
            break
        }
    }
}
