// In-process effects and scripted runs of the machines that use the effect shapes of
// Docs/Effects.md: Transfer (a stream, a failure, a computed back-off), Downloader (a set of
// requests) and Checkout with its child machine Payment. The demo prints these traces;
// ExamplesTests pins them.
import Foundation
import Synchronization
import StateLoop

/// What the example effects fail with; its description is what `onError:` events carry.
struct ExampleFailure: Error, CustomStringConvertible {
    let description: String
}

/// Uploads nothing anywhere: streams the progress of three chunks, but the first `failures`
/// attempts lose the connection after the first chunk.
final class FlakyUploader: Transfer.Effects {
    let failures: Int
    let attempts = Mutex(0)

    init(failures: Int) {
        self.failures = failures
    }

    func upload(_ request: String) -> AsyncThrowingStream<Transfer.UploadResult, any Error> {
        let attempt = attempts.withLock { count in
            count += 1
            return count
        }
        let breaks = attempt <= failures
        return AsyncThrowingStream { continuation in
            continuation.yield(.progress(sent: 1))
            if breaks {
                continuation.finish(throwing: ExampleFailure(description: "connection lost"))
                return
            }
            continuation.yield(.progress(sent: 2))
            continuation.yield(.progress(sent: 3))
            continuation.yield(.uploaded)
            continuation.finish()
        }
    }
}

extension Examples {
    public static func transfer(clock: FastForwardClock = demoClock) async -> [String] {
        let uploader = FlakyUploader(failures: 1)
        let describe: @Sendable (Transfer.State) -> String = { state in
            "\(configuration(state.isIn)) sent=\(state.sent) attempt=\(state.attempt)"
                + (state.error.map { " error=\"\($0)\"" } ?? "")
                + (state.timerDelay(.waiting).map { " retry in \($0)" } ?? "")
                + (state.output.map { " output=\($0)" } ?? "")
        }
        let system = Transfer.system(input: .init(file: "photo.heic"), effects: uploader, clock: clock)
        return await Demo.trace(system, describe: describe) { machine in
            machine.send(.start)     // the stream's first chunk, then the connection breaks
            await machine.waitUntil { _ in false }  // retried after 2 s; the machine finishes in done
        }
    }

    public static func downloader() async -> [String] {
        let files = Downloader.RecordingEffects(download: { file in
            switch file {
            case "corrupt.zip": throw ExampleFailure(description: "checksum mismatch")
            case "big.iso":
                try await Task.sleep(for: .seconds(3600))  // until paused: then cancelled
                return .downloaded(file: file)
            default: return .downloaded(file: file)
            }
        })
        let describe: @Sendable (Downloader.State) -> String = { state in
            "\(state.mode) queued=\(state.queued.sorted()) finished=\(state.finished) broken=\(state.broken)"
        }
        var trace = await Demo.trace(Downloader.system(effects: files), describe: describe) { machine in
            machine.send(.add(file: "a.txt"))
            await machine.waitUntil { $0.finished == ["a.txt"] }
            machine.send(.add(file: "big.iso"))      // keeps running...
            machine.send(.add(file: "b.txt"))        // ...while b.txt comes and goes
            await machine.waitUntil { $0.finished == ["a.txt", "b.txt"] }
            machine.send(.add(file: "corrupt.zip"))
            await machine.waitUntil { !$0.broken.isEmpty }
            machine.send(.pause)                     // cancels big.iso
            machine.send(.resume)                    // starts it again
            await machine.waitUntil { $0.mode == .running }
            while files.calls.count < 5 { await Task.yield() }  // big.iso's second run has started
        }
        // Runs start concurrently, so the calls are listed sorted.
        trace.append("downloads started: \(files.calls.map { "\($0)" }.sorted())")
        return trace
    }

    public static func checkout(clock: FastForwardClock = demoClock) async -> [String] {
        let cover = URL(fileURLWithPath: "/images/cover.png")
        let slow = URL(fileURLWithPath: "/images/back.png")
        let customerCancelled = Mutex(false)
        let feeds = Mutex(0)
        let shop = Checkout.RecordingEffects(
            loadImage: { url in
                if url == slow { try await Task.sleep(for: .seconds(3600)) }  // cancelled once paying starts
                return .imageLoaded(url: url, data: Data(url.lastPathComponent.utf8))
            },
            holdStock: { _ in
                // Holds the stock until paying ends, which cancels this run.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            },
            pay: { _ in
                Payment.RecordingEffects(authorize: { amount in
                    // The first payment waits for the bank until the customer cancels it.
                    if !customerCancelled.withLock({ $0 }) { try? await Task.sleep(for: .seconds(3600)) }
                    return .authorized(receipt: "R\(amount)")
                })
            },
            trackDelivery: { _ in
                let feed = feeds.withLock { count in
                    count += 1
                    return count
                }
                return AsyncThrowingStream { continuation in
                    if feed == 1 {
                        continuation.yield(.delivery(status: "packed"))
                        continuation.yield(.delivery(status: "on its way"))
                        continuation.finish(throwing: ExampleFailure(description: "tracking lost"))
                    } else {
                        continuation.yield(.delivery(status: "delivered"))
                        continuation.finish()
                    }
                }
            })
        let describe: @Sendable (Checkout.State) -> String = { state in
            "\(state.mode) images=\(state.images.map(\.lastPathComponent).sorted()) loaded=\(state.loaded.keys.map(\.lastPathComponent).sorted())"
                + (state.receipt.map { " receipt=\($0)" } ?? "")
                + (state.status.isEmpty ? "" : " status=\"\(state.status)\"")
                + (state.problem.map { " problem=\"\($0)\"" } ?? "")
                + state.forwarded.map { forwarded in
                    switch forwarded { case .pay(let event): " forwarded to pay: \(event)" }
                }.joined()
        }
        let system = Checkout.system(input: .init(total: 42, images: [cover, slow]), effects: shop, clock: clock)
        var trace = await Demo.trace(system, describe: describe) { machine in
            await machine.waitUntil { $0.loaded.count == 1 }   // the cover loads; the back is slow
            machine.send(.pay)                                 // a Payment child starts
            machine.send(.cancel)                              // forwarded to it as abort
            await machine.waitUntil { $0.isIn(.browsing) }     // the child declined: back to browsing
            customerCancelled.withLock { $0 = true }
            machine.send(.pay)                                 // a new child, which authorizes
            await machine.waitUntil { $0.status == "delivered" }
        }
        // A run cancelled before its task began is never called, so the calls are listed once each.
        trace.append("called: \(Set(shop.calls.filter { if case .loadImage = $0 { false } else { true } }.map { "\($0)" }).sorted())")
        return trace
    }
}
