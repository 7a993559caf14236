import Testing
@testable import StateLoopSpec

/// The checks of effect shapes (Docs/Effects.md, sections 1–9): one test per rule, each with the
/// exact printed diagnostic at its line and column.
@Suite struct EffectCheckTests {
    /// The child of the running example, decoded into the library (never checked here).
    static let payment = """
        machine: Payment
        input:
          amount: Int
        events:
          authorized: {from: effects, receipt: String}
          refused: {from: effects, reason: String}
          abort: {}
          retry: {reason: String}
        initial: authorizing
        states:
          authorizing:
            on: {authorized: paid, refused: declined, abort: declined, retry: authorizing}
          paid:
            type: final
            output: {receipt: {type: String, value: '"R"'}}
          declined:
            type: final
            output: {reason: {type: String, value: '"no"'}}
        effects:
          authorize: {in: [authorizing], request: {type: Int, value: amount}, emits: [authorized, refused]}
        """

    /// A parent running `Payment` in `paying`, whose effect `pay` ends with `child` (from line 21).
    /// `paying` answers `cancel` only through `forward:`.
    private func checkout(
        _ child: String = "    input: {amount: total}\n    forward: {cancel: abort}\n    onDone: {paid: paid, declined: declined}\n",
        machine: String = "Payment", paying: String = "    on: {paid: browsing, declined: browsing}\n    ignore: [pay]\n", events: String = ""
    ) -> String {
        """
        machine: Checkout
        context:
          total: {type: Int, default: "1"}
        events:
          pay: {}
          cancel: {}
          paid: {from: effects, receipt: String}
          declined: {from: effects, reason: String}\(events)
        initial: browsing
        states:
          browsing:
            on: {pay: paying}
            ignore: [cancel]
          paying:
        \(paying)effects:
          pay:
            in: [paying]
            machine: \(machine)

        """ + child
    }

    private func checked(_ yaml: String, library: [String] = [Self.payment]) -> [String] {
        printedDiagnostics(yaml, library: library)
    }

    // MARK: E2, E3: spelling, checked by the decoder

    private let header = "machine: M\ncontext:\n  n: {type: Int?}\nevents: {go: {}, done: {from: effects}}\ninitial: a\nstates:\n  a: {on: {go: a, done: a}}\neffects:\n"

    @Test("E2: request: with requests: fails at the second key")
    func requestAndRequestsExcludeEachOther() {
        #expect(checked(header + "  load: {in: [a], requests: {type: Int, value: \"[]\"}, request: {type: Int, value: n}, emits: [done]}\n") == [
            "test.machine.yml:9:55: error: an effect has either 'request:' or 'requests:', not both (fix: keep 'request:' for one run at a time, or 'requests:' for one run per element of a set)",
        ])
    }

    @Test("E2: requests: and stream: true need in:")
    func setsAndStreamsNeedALifetime() {
        #expect(checked(header + "  load: {requests: {type: Int}, emits: [done]}\n  feed: {stream: true, request: {type: Int}, emits: [done]}\n") == [
            "test.machine.yml:9:10: error: a set needs 'in:', the states it runs in (fix: add 'in: [state, ...]'; a one-shot effect started by 'run:' has no lifetime that could end a set)",
            "test.machine.yml:10:10: error: a stream needs 'in:', the states it runs in (fix: add 'in: [state, ...]'; a one-shot effect started by 'run:' has no lifetime that could end a stream)",
        ])
    }

    @Test("E2: stream: true without results fails at stream:")
    func streamNeedsResults() {
        #expect(checked(header + "  feed: {in: [a], stream: true, request: {type: Int, value: n}}\n") == [
            "test.machine.yml:9:19: error: a stream without results has nothing to send (fix: add 'emits: [event, ...]', or remove 'stream: true': a fire-and-forget effect already runs until its request changes)",
        ])
    }

    @Test("E2: stream: takes true or false")
    func streamIsABoolean() {
        #expect(checked(header + "  feed: {in: [a], stream: yes, request: {type: Int, value: n}, emits: [done]}\n") == [
            "test.machine.yml:9:27: error: 'stream:' takes 'true' or 'false', found 'yes' (fix: write 'stream: true' for an effect that answers with any number of events)",
        ])
    }

    @Test("E2: machine: with a request, results or without in: fails at the other key")
    func childMachinesTakeNoRequest() {
        #expect(checked(header + "  pay: {in: [a], machine: P, emits: [done], onError: done}\n  run: {machine: P}\n") == [
            "test.machine.yml:9:30: error: 'emits:' does not belong to a child machine (fix: remove it: a child machine's request is its 'input:', and its results are the events of 'onDone:' and 'events:')",
            "test.machine.yml:9:45: error: 'onError:' does not belong to a child machine (fix: remove it: a child machine's request is its 'input:', and its results are the events of 'onDone:' and 'events:')",
            "test.machine.yml:10:9: error: a child machine needs 'in:', the states it runs in (fix: add 'in: [state, ...]'; a one-shot effect started by 'run:' has no lifetime that could end a child machine)",
        ])
    }

    @Test("E2: input:, forward: and onDone: without machine: fail at the key")
    func childKeysNeedMachine() {
        #expect(checked(header + "  load: {in: [a], request: {type: Int, value: n}, emits: [done], forward: [go]}\n") == [
            "test.machine.yml:9:66: error: 'forward:' belongs to a child machine (fix: add 'machine: Name', or remove 'forward:')",
        ])
    }

    @Test("E3: invoke:, src: and onSnapshot: get a did-you-mean")
    func xstateSpellings() {
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a:\n    on: {go: a}\n    invoke: {src: P}\neffects:\n  pay: {in: [a], src: P, onSnapshot: go}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:7:5: error: unknown key 'invoke' in a state (fix: did you mean an effect? write it under 'effects:' with 'in: [this state]')",
            "test.machine.yml:9:3: error: effect 'pay' has no 'request:' (fix: add 'request: {type: T, value: expression}'; the effect runs while the value is not nil)",
            "test.machine.yml:9:18: error: unknown key 'src' in an effect (fix: did you mean 'machine:'? a child machine is an effect with 'machine: Name')",
            "test.machine.yml:9:26: error: unknown key 'onSnapshot' in an effect (fix: a parent does not see its child's state; map the child's final states to events with 'onDone:')",
        ])
    }

    @Test("E22: an output field needs type: and value:")
    func outputFieldsNeedTypeAndValue() {
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: f}}\n  f:\n    type: final\n    output: {receipt: {type: String}}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:8:14: error: output field 'receipt' needs 'type:' and 'value:' (fix: write 'receipt: {type: T, value: expression}')",
        ])
    }

    // MARK: E16, E20: failure

    @Test("E16: the onError: event must exist")
    func onErrorNamesAnEvent() {
        #expect(checked(header + "  load: {in: [a], request: {type: Int, value: n}, emits: [done], onError: don}\n") == [
            "test.machine.yml:9:75: error: effect 'load' fails with 'don', which is not an event (fix: did you mean 'done'?)",
        ])
    }

    @Test("E16: the onError: event has only the fields error and request")
    func onErrorFillsOnlyErrorAndRequest() {
        let yaml = "machine: M\ncontext:\n  n: {type: Int?}\nevents: {go: {}, failed: {from: effects, error: String, request: Int, code: Int, at: Int}}\ninitial: a\nstates:\n  a: {on: {go: a, failed: a}}\neffects:\n  load: {in: [a], request: {type: Int, value: n}, onError: failed}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:9:60: error: a failure of effect 'load' cannot fill fields 'code', 'at' of event 'failed' (fix: a failure fills only 'error: String' (its description) and 'request: T' (the request that failed); remove the other fields, or catch the error in the effect and return it as one of its 'emits:' events)",
        ])
    }

    @Test("E20: the onError: event must be answered where the effect runs, and counts as sent")
    func onErrorEventIsAResult() {
        let yaml = "machine: M\ncontext:\n  n: {type: Int?}\nevents: {go: {}, failed: {from: effects}}\ninitial: a\nstates:\n  a: {on: {go: b}}\n  b: {on: {go: a}}\neffects:\n  load: {in: [b], request: {type: Int, value: n}, onError: failed}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:4:18: warning: no state handles event 'failed', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:8:3: error: state 'b' does not handle event 'failed' (fix: add `ignore: [failed]` to state 'b' or handle it under `on:`)\n"
                + "test.machine.yml:10:15: note: 'failed' is a result of effect 'load', which can run in state 'b'",
        ])
    }

    @Test("E20: the onError: event of a one-shot effect is answered in every leaf")
    func oneShotFailureArrivesAnywhere() {
        let yaml = "machine: M\nevents: {go: {}, failed: {from: effects}}\ninitial: a\nstates:\n  a: {on: {go: b, failed: a}, entry: [{run: save}]}\n  b: {on: {go: a}}\neffects:\n  save: {onError: failed}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:6:3: error: state 'b' does not handle event 'failed' (fix: add `ignore: [failed]` to state 'b' or handle it under `on:`)",
        ])
    }

    // MARK: E21, E22: input and output

    @Test("E21: input field names are identifiers, and unique")
    func inputFieldNames() {
        let yaml = "machine: M\ninput:\n  2x: Int\n  ok: Int\n  ok: String\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:5:3: error: duplicate key 'ok'; a key may appear only once in a mapping (fix: merge the two entries, or rename one of them)\ntest.machine.yml:4:3: note: 'ok' first appears here",
        ])
        #expect(checked("machine: M\ninput:\n  2x: Int\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n") == [
            "test.machine.yml:3:3: error: '2x' is not a valid input field name; names are ASCII letters, digits and '_' and do not start with a digit (fix: rename it, e.g. 'field2x')",
        ])
    }

    @Test("E22: output: on a state that is not final fails at the key")
    func outputBelongsToAFinalState() {
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a:\n    on: {go: f}\n    output: {x: {type: Int, value: \"1\"}}\n  f: {type: final}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:7:5: error: 'output:' belongs to a top-level final state; 'a' is not a final state (fix: remove 'output:', or make 'a' a top-level state with 'type: final')",
        ])
    }

    @Test("E22: output: on a nested final state without doneEvent: fails at the key (S160)")
    func outputBelongsToATopLevelFinalState() {
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a:\n    initial: b\n    on: {go: a}\n    states:\n      b: {on: {go: f}}\n      f:\n        type: final\n        output: {x: {type: Int, value: \"1\"}}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:12:9: error: 'output:' of final state 'f' inside 'a' needs 'doneEvent:': entering it does not finish the machine, its output is the event the 'onDone:' of 'a' reads (S160) (fix: add 'doneEvent: event', naming a declared event whose fields the output gives, or move 'output:' to a final state at the top level of 'states:')",
        ])
    }

    @Test("E22: output field names are identifiers, and their Swift stays in place")
    func outputFieldsAreChecked() {
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: f}}\n  f:\n    type: final\n    output: {_x: {type: Int, value: \"1 }\"}}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:8:14: error: '_x' starts with '_', which is reserved for generated code (fix: rename it, e.g. 'x')",
            "test.machine.yml:8:38: error: this Swift expression cannot be placed in the generated code: the expression has a '}' that closes nothing it opened, which would end the generated member (fix: balance its brackets, close its strings and comments, and leave out compiler directives)",
        ])
    }

    // MARK: E23–E31: child machines

    @Test("E56: a child machine named like a result type of the parent fails at the machine: value, with a note at the effect")
    func childMachineNamedLikeAResultTypeFails() {
        let loadResult = Self.payment.replacingOccurrences(of: "machine: Payment", with: "machine: LoadResult")
        let yaml = checkout(machine: "LoadResult") + "  load: {in: [paying], request: {type: Int, value: total}, emits: [paid]}\n"
        #expect(checked(yaml, library: [loadResult]) == [
            "test.machine.yml:20:14: error: effect 'pay' runs machine 'LoadResult', which the type 'LoadResult' of effect 'load' would hide inside 'Checkout' (fix: rename the machine, or the effect 'load')\n"
                + "test.machine.yml:24:3: note: effect 'load' is declared here",
        ])
    }

    @Test("E23, E28: a parent of a known child loads, and a forwarded event is answered where the child runs")
    func childMachineLoads() throws {
        #expect(checked(checkout()) == [])
    }

    @Test("E28: outside the child's states a forwarded event still needs an answer")
    func forwardAnswersOnlyWhereTheChildRuns() {
        let yaml = checkout().replacingOccurrences(of: "    ignore: [cancel]\n", with: "")
        #expect(checked(yaml) == [
            "test.machine.yml:11:3: error: state 'browsing' does not handle event 'cancel' (fix: add `ignore: [cancel]` to state 'browsing' or handle it under `on:`)",
        ])
    }

    @Test("E23: an unknown machine fails at the value, with a did-you-mean among the library")
    func unknownMachineFails() {
        #expect(checked(checkout(machine: "Paymnt")) == [
            "test.machine.yml:20:14: error: effect 'pay' runs machine 'Paymnt', but no spec of this target declares 'machine: Paymnt' (fix: did you mean 'Payment'?)",
        ])
        #expect(checked(checkout(machine: "Payment"), library: []) == [
            "test.machine.yml:20:14: error: effect 'pay' runs machine 'Payment', but no spec of this target declares 'machine: Payment' (fix: add its spec to the target; for stateloop, name it on the command line, pass it with --child, or put it in this spec's folder)",
        ])
    }

    @Test("E23: a machine that runs itself through another fails at machine:, naming the cycle")
    func cyclesFail() {
        let payment = Self.payment + "\n  parent: {in: [authorizing], machine: Checkout}\n"
        #expect(checked(checkout(), library: [payment]) == [
            "test.machine.yml:20:14: error: machine 'Checkout' runs itself: Checkout -> Payment -> Checkout (fix: a machine cannot run a machine that runs it; remove one 'machine:' effect of the cycle)",
        ])
        let yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\neffects:\n  again: {in: [a], machine: M}\n"
        #expect(checked(yaml, library: []) == [
            "test.machine.yml:7:29: error: machine 'M' runs itself: M -> M (fix: a machine cannot run a machine that runs it; remove one 'machine:' effect of the cycle)",
        ])
    }

    @Test("E24: a missing input field fails at input:, or at machine: without input:")
    func missingInputFails() {
        #expect(checked(checkout("    input: {}\n    forward: {cancel: abort}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:21:5: error: effect 'pay' does not give input field 'amount' of machine 'Payment' (fix: add 'amount: expression' to 'input:')",
        ])
        #expect(checked(checkout("    forward: {cancel: abort}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:20:14: error: effect 'pay' does not give input field 'amount' of machine 'Payment' (fix: add 'input: {amount: expression}')",
        ])
    }

    @Test("E24: an unknown input field fails at its key, with a did-you-mean")
    func unknownInputFails() {
        #expect(checked(checkout("    input: {amout: total, currency: '\"EUR\"'}\n    forward: {cancel: abort}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:21:13: error: machine 'Payment' has no input field 'amout' (fix: did you mean 'amount'?)",
            "test.machine.yml:21:27: error: machine 'Payment' has no input field 'currency' (fix: use one of amount, or declare 'currency' under 'input:' in the spec of 'Payment')",
        ])
    }

    @Test("E24, E31: input: for a child without input, and onDone: for a child that never finishes, fail at the key")
    func inputForAChildWithoutInputFails() {
        let child = "machine: Beep\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n"
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancel: go}\n    onDone: {paid: paid, declined: declined}\n", machine: "Beep"), library: [child]) == [
            "test.machine.yml:21:5: error: machine 'Beep' has no 'input:', so effect 'pay' has nothing to give it (fix: remove 'input:', or declare 'input:' in the spec of 'Beep')",
            "test.machine.yml:23:5: error: machine 'Beep' never finishes: it has no top-level final state (fix: remove 'onDone:', or add a state with 'type: final' to the top level of 'Beep')",
        ])
    }

    @Test("E29: forward: names a parent event and a child event, with did-you-means")
    func forwardNamesEvents() {
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancl: abort, cancel: abrt}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:22:15: error: 'forward:' of effect 'pay' sends 'cancl', which is not an event (fix: did you mean 'cancel'?)",
            "test.machine.yml:22:37: error: machine 'Payment' has no event 'abrt' (fix: did you mean 'abort'?)",
        ])
    }

    @Test("E29: forwarding to a child event from: effects fails at the child event")
    func forwardToAnEffectEventFails() {
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancel: refused}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:22:23: error: event 'refused' of machine 'Payment' is 'from: effects', so only its effects may send it (fix: forward 'cancel' to an event of 'Payment' without 'from: effects')",
        ])
        #expect(checked(checkout("    input: {amount: total}\n    forward: [cancel]\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:22:15: error: machine 'Payment' has no event 'cancel' (fix: use one of authorized, refused, abort, retry, or declare 'cancel' under 'events:' in the spec of 'Payment')",
        ])
    }

    @Test("E29: a child payload field the parent event lacks fails at the entry")
    func forwardCopiesFieldsByName() {
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancel: retry}\n    onDone: {paid: paid, declined: declined}\n")) == [
            "test.machine.yml:22:15: error: forwarding 'cancel' as 'retry' needs field 'reason', which event 'cancel' does not have (fix: add 'reason: T' to event 'cancel': the payload is copied by field name)",
        ])
    }

    @Test("E31: onDone: keys are top-level final states of the child, with a did-you-mean")
    func onDoneKeysAreFinalStates() {
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancel: abort}\n    onDone: {paidd: paid, authorizing: declined, declined: declined}\n")) == [
            "test.machine.yml:23:14: error: 'paidd' is not a top-level final state of machine 'Payment' (fix: did you mean 'paid'?)",
            "test.machine.yml:23:27: error: 'authorizing' is not a top-level final state of machine 'Payment' (fix: map one of paid, declined)",
        ])
    }

    @Test("E31: onDone: maps every top-level final state, or fails at the key listing the rest")
    func onDoneMapsEveryFinalState() {
        #expect(checked(checkout("    input: {amount: total}\n    forward: {cancel: abort}\n    onDone: {paid: paid}\n")) == [
            "test.machine.yml:8:3: error: event 'declined' is 'from: effects' but no effect emits it, so nothing can send it (fix: add 'declined' to the 'emits:' of an effect, or remove 'from: effects')",
            "test.machine.yml:23:5: error: 'onDone:' of effect 'pay' does not map final state 'declined' of machine 'Payment' (fix: add 'declined: event' to 'onDone:': with 'onDone:', every way the child ends is reported)",
        ])
    }

    @Test("E31: the onDone: event exists and its fields are in the output")
    func onDoneEventsMatchTheOutput() {
        let yaml = checkout("    input: {amount: total}\n    forward: {cancel: abort}\n    onDone: {paid: payd, declined: paid}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:8:3: error: event 'declined' is 'from: effects' but no effect emits it, so nothing can send it (fix: add 'declined' to the 'emits:' of an effect, or remove 'from: effects')",
            "test.machine.yml:23:20: error: 'onDone:' of effect 'pay' maps 'paid' to 'payd', which is not an event (fix: did you mean 'pay'?)",
            "test.machine.yml:23:26: error: event 'paid' has field 'receipt', which the output of final state 'declined' of machine 'Payment' lacks (fix: add 'receipt: {type: T, value: expression}' to the 'output:' of 'declined' in the spec of 'Payment', or remove it from 'paid')",
        ])
    }

    @Test("E31: an unanswered outcome fails at the leaf, with a note at the onDone: entry")
    func onDoneEventsAreResults() {
        #expect(checked(checkout(paying: "    on: {paid: browsing}\n    ignore: [pay]\n")) == [
            "test.machine.yml:8:3: warning: no state handles event 'declined', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:14:3: error: state 'paying' does not handle event 'declined' (fix: add `ignore: [declined]` to state 'paying' or handle it under `on:`)\n"
                + "test.machine.yml:23:26: note: 'declined' is a result of effect 'pay', which can run in state 'paying'",
        ])
    }

    @Test("E31: an outcome only ignored wherever the child runs gets a warning at the entry")
    func onDoneEventOnlyIgnoredWarns() {
        #expect(checked(checkout(paying: "    on: {paid: browsing}\n    ignore: [pay, declined]\n")) == [
            "test.machine.yml:8:3: warning: no state handles event 'declined', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:23:26: warning: effect 'pay' reports final state 'declined' as 'declined', but every state where it runs ignores 'declined' (fix: handle 'declined' under 'on:' in a state where 'pay' runs; as it is, the machine never reacts to this way of ending)",
        ])
    }

    // MARK: E35, E36: named delays

    private let delayed = "machine: M\ncontext:\n  n: {type: Int, default: \"0\"}\nevents: {go: {}}\ndelays:\n  backoff: \".seconds(n)\"\ninitial: a\nstates:\n  a: {on: {go: a}, after: {backof: a}}\n"

    @Test("E36: an after: name that is not a delay fails with a did-you-mean")
    func unknownDelayFails() {
        #expect(checked(delayed) == [
            "test.machine.yml:9:28: error: state 'a' waits for 'backof', which is neither a duration nor a delay (fix: did you mean 'backoff'?)",
        ])
        #expect(checked(delayed.replacingOccurrences(of: "delays:\n  backoff: \".seconds(n)\"\n", with: "")) == [
            "test.machine.yml:7:28: error: state 'a' waits for 'backof', which is neither a duration nor a delay (fix: declare 'backof' under 'delays:')",
        ])
    }

    @Test("E35, E36: delays are used by after:, named as identifiers, and their Swift stays in place")
    func delaysAreChecked() throws {
        _ = try loadedSpec(delayed.replacingOccurrences(of: "backof:", with: "backoff:"))
        let yaml = delayed.replacingOccurrences(of: "  backoff: \".seconds(n)\"\n", with: "  backoff: \".seconds(n)\"\n  _later: \"#if\"\n")
            .replacingOccurrences(of: "backof:", with: "backoff:")
        #expect(checked(yaml) == [
            "test.machine.yml:7:3: error: '_later' starts with '_', which is reserved for generated code (fix: rename it, e.g. 'later')",
            "test.machine.yml:7:3: warning: delay '_later' is not used by any 'after:' or 'send:' (fix: wait for it with 'after: {_later: state}', or remove it)",
            "test.machine.yml:7:12: error: this Swift expression cannot be placed in the generated code: the expression contains the directive '#if', which would change the code around it (fix: balance its brackets, close its strings and comments, and leave out compiler directives)",
        ])
    }

    // MARK: E45: reserved names

    @Test("E45: the context fields requests, forwarded and output are reserved", arguments: ["requests", "forwarded", "output"])
    func reservedFields(_ name: String) {
        let diagnostics = checked("machine: M\ncontext:\n  \(name): {type: Int, default: \"0\"}\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("test.machine.yml:3:3: error: context field '\(name)' would clash with the generated 'State.\(name)'") == true)
    }

    @Test("E45: machines named after the new nested types fail", arguments: ["Requests", "Input", "Output", "Forwarded", "RecordingEffects", "Call"])
    func reservedMachineNames(_ name: String) {
        #expect(checked("machine: \(name)\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n") == [
            "test.machine.yml:1:10: error: machine '\(name)' would clash with the type '\(name)' generated inside it (fix: rename the machine, e.g. '\(name)Machine')",
        ])
    }
}
