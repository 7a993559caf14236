import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// The generated Checkout and Payment machines (Tests/StateLoopCodegenTests/Fixtures), which use
/// every effect shape of Docs/Effects.md, through `reduce` and on the runtime.
@Suite(.timeLimit(.minutes(1)))
struct EffectShapeTests {
    static let a = URL(fileURLWithPath: "/a.png")
    static let b = URL(fileURLWithPath: "/b.png")
    static let input = Checkout.Input(total: 42, images: [a, b])

    struct Lost: Error, CustomStringConvertible {
        var description: String { "the courier lost the parcel" }
    }

    // MARK: - Through reduce

    @Test("E21: the machine starts from its input, which only default: reads")
    func initialStateComesFromTheInput() {
        let state = Checkout.State.initial(Self.input)
        #expect(state.total == 42)
        #expect(state.images == [Self.a, Self.b])
        #expect(state.isIn(.browsing))
    }

    @Test("E42: the requests of every effect are readable in each state, without running anything")
    func requestsAreVisibleInTheState() {
        var state = Checkout.State.initial(Self.input)
        #expect(state.requests.loadImage == [Self.a, Self.b])
        #expect(state.requests.holdStock == nil)
        #expect(state.requests.pay == nil)
        Checkout.reduce(&state, .imageLoaded(url: Self.a, data: Data([1])))
        #expect(state.requests.loadImage == [Self.b])
        Checkout.reduce(&state, .pay)
        #expect(state.requests.loadImage == [])
        #expect(state.requests.holdStock == 42)
        #expect(state.requests.pay == Payment.Input(amount: 42))
        #expect(state.requests.trackDelivery == nil)
    }

    @Test("E26, E28, E43: a forwarded event is answered in the leaf and listed for the child")
    func forwardedEventsAreListedInTheState() {
        var state = Checkout.State.initial(Self.input)
        Checkout.reduce(&state, .pay)
        #expect(state.forwarded == [])
        Checkout.reduce(&state, .cancel)
        #expect(state.forwarded == [.pay(.abort)])
        #expect(state.isIn(.paying))
        Checkout.reduce(&state, .pay)  // ignored in `paying`: the next step replaces the list
        #expect(state.forwarded == [])
    }

    @Test("E26: nothing is forwarded where the child does not run")
    func nothingIsForwardedWithoutAChild() {
        var state = Checkout.State.initial(Self.input)
        Checkout.reduce(&state, .cancel)
        #expect(state.forwarded == [])
    }

    @Test("E22: the output is nil until a top-level final state is entered, then that state's output")
    func outputOfAFinishedMachine() {
        var state = Payment.State.initial(.init(amount: 5))
        #expect(state.amount == 5)
        #expect(state.output == nil)
        Payment.reduce(&state, .authorized(receipt: "R1"))
        #expect(state.isDone)
        #expect(state.output == .paid(receipt: "R1"))
        var declined = Payment.State.initial(.init(amount: 5))
        Payment.reduce(&declined, .abort)
        #expect(declined.output == .declined(reason: "cancelled"))
    }

    @Test("E38, E39, E41: a named delay is evaluated on entry after entry:, kept while armed, evaluated again on the next entry")
    func namedDelayIsEvaluatedOnEntry() throws {
        var state = Checkout.State.initial(Self.input)
        Checkout.reduce(&state, .pay)
        Checkout.reduce(&state, .paid(receipt: "R1"))
        #expect(state.timerDelay(.reconnecting) == nil)
        Checkout.reduce(&state, .trackingLost(error: "lost"))
        #expect(state.attempt == 1)
        #expect(state.timerDelay(.reconnecting) == .seconds(2))
        Checkout.reduce(&state, try #require(state.armedTimer(.reconnecting)))
        #expect(state.isIn(.shipped))
        Checkout.reduce(&state, .trackingLost(error: "lost again"))
        #expect(state.attempt == 2)
        #expect(state.timerDelay(.reconnecting) == .seconds(4))
    }

    // MARK: - On the runtime

    /// Effects for the whole checkout: images load at once, payment is authorized with `answer`,
    /// the delivery feed yields two updates, then fails.
    static func shop(authorize: @escaping @Sendable (Int) async -> Payment.AuthorizeResult) -> Checkout.RecordingEffects {
        Checkout.RecordingEffects(
            loadImage: { url in
                guard url == a else { throw Lost() }
                return .imageLoaded(url: url, data: Data([7]))
            },
            pay: { _ in Payment.RecordingEffects(authorize: authorize) },
            trackDelivery: { _ in
                AsyncThrowingStream { continuation in
                    continuation.yield(.delivery(status: "packed"))
                    continuation.yield(.delivery(status: "on its way"))
                    continuation.finish(throwing: Lost())
                }
            })
    }

    @Test("E9, E15, E16, E44: a set runs once per element; a failure becomes the onError: event with the error's description and the element; RecordingEffects records the calls")
    func setEffectRunsPerElementAndFailuresBecomeEvents() async throws {
        let shop = Self.shop { _ in .authorized(receipt: "R1") }
        let (run, states) = Checkout.system(input: Self.input, effects: shop, clock: ManualClock()).start()
        let settled = try #require(await firstState(in: states) { $0.images.isEmpty })
        #expect(settled.loaded == [Self.a: Data([7])])
        #expect(settled.problem == "the courier lost the parcel")
        #expect(shop.calls.count == 2)
        #expect(shop.calls.contains(.loadImage(Self.a)) && shop.calls.contains(.loadImage(Self.b)))
        run.stop()
    }

    @Test("E14, E25, E30, E4, E17, E38: fire-and-forget, a child machine's output, a stream and its failure, a computed back-off")
    func checkoutRunsEveryShape() async throws {
        let clock = ManualClock()
        let shop = Self.shop { _ in .authorized(receipt: "R1") }
        let (run, states) = Checkout.system(input: Self.input, effects: shop, clock: clock).start()
        run.send(.pay)
        let shipped = try #require(await firstState(in: states) { $0.isIn(.shipped) })
        #expect(shipped.receipt == "R1")
        let lost = try #require(await firstState(in: states) { $0.isIn(.reconnecting) })
        #expect(lost.status == "on its way")
        #expect(lost.problem == "the courier lost the parcel")
        #expect(lost.timerDelay(.reconnecting) == .seconds(2))
        #expect(shop.calls.contains(.holdStock(42)))
        #expect(shop.calls.contains(.pay(Payment.Input(amount: 42))))
        #expect(shop.calls.filter { $0 == .trackDelivery("R1") }.count == 1)
        await clock.waitForOneSleeper(wakingIn: .seconds(2))
        clock.advance(by: .seconds(2))
        _ = try #require(await firstState(in: states) { $0.isIn(.shipped) })
        _ = try #require(await firstState(in: states) { $0.isIn(.reconnecting) })
        #expect(shop.calls.filter { $0 == .trackDelivery("R1") }.count == 2)
        run.stop()
    }

    @Test("E5: leaving a stream's in: cancels its run, which ends the iteration and calls the stream's onTermination")
    func leavingInEndsTheStream() async throws {
        let (ended, endedSink) = AsyncStream.makeStream(of: Void.self)
        let shop = Checkout.RecordingEffects(
            loadImage: { url in .imageLoaded(url: url, data: Data()) },
            pay: { _ in Payment.RecordingEffects(authorize: { _ in .authorized(receipt: "R1") }) },
            trackDelivery: { _ in
                AsyncThrowingStream { continuation in
                    continuation.onTermination = { _ in endedSink.yield() }
                    continuation.yield(.delivery(status: "packed"))  // and then nothing, until cancelled
                }
            })
        let (run, states) = Checkout.system(input: Self.input, effects: shop, clock: ManualClock()).start()
        run.send(.pay)
        _ = try #require(await firstState(in: states) { $0.status == "packed" })
        run.send(.trackingLost(error: "the test left"))  // to `reconnecting`: the request goes away
        _ = try #require(await firstState(in: states) { $0.isIn(.reconnecting) })
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        run.stop()
    }

    @Test("E26, E30, E32, E34: a forwarded cancel ends the child, whose output comes back once; the next pay starts a new child and asks for its effects again")
    func forwardedEventEndsTheChild() async throws {
        let shop = Self.shop { _ in
            try? await Task.sleep(for: .seconds(3600))
            return .refused(reason: "late")
        }
        let (run, states) = Checkout.system(input: Self.input, effects: shop, clock: ManualClock()).start()
        run.send(.pay)
        _ = try #require(await firstState(in: states) { $0.isIn(.paying) })
        run.send(.cancel)
        let back = try #require(await firstState(in: states) { $0.isIn(.browsing) })
        #expect(back.problem == "cancelled")
        run.send(.pay)
        _ = try #require(await firstState(in: states) { $0.isIn(.paying) })
        run.stop()
        #expect(shop.calls.filter { $0 == .pay(Payment.Input(amount: 42)) }.count == 2)
    }

    @Test("E7, E11, E12, E14, E16: each element of a set of streams gets its own stream, run once while it stays; one that fails becomes its onError: event with its element")
    func setOfStreamsFeedsEachElement() async throws {
        let feeds = Feeds.RecordingEffects(
            subscribe: { topic in
                AsyncThrowingStream { continuation in
                    guard topic != "broken" else { return continuation.finish(throwing: Lost()) }
                    continuation.yield(.post(topic: topic, text: "hello"))
                    continuation.finish()
                }
            },
            save: { _ in throw Lost() })
        let (run, states) = Feeds.system(effects: feeds).start()
        _ = try #require(await firstState(in: states) { $0.seen == ["news: hello"] })
        run.send(.follow(topic: "broken"))
        let dropped = try #require(await firstState(in: states) { $0.lastError != nil })
        #expect(dropped.topics == ["news"])
        #expect(dropped.lastError == "the courier lost the parcel")
        run.send(.stop)
        let last = await firstState(in: states) { _ in false }  // the system finishes once save returns
        #expect(last == nil)
        #expect(feeds.calls.contains(.mark("news")) && feeds.calls.contains(.save(1)))
        #expect(feeds.calls.filter { $0 == .subscribe("news") }.count == 1)  // E7: a finished stream is not run again
    }
}
