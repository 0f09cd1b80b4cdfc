import FactoryScopes
import Foundation
import ServerApp
import Synchronization

// RequestCost: what the library's part of one /whoami request costs, step by step,
// without HTTP. It replays what RequestContainerMiddleware and the /whoami handler
// do with the server's own factories (Container+Server.swift), each step added to the
// previous ones, many times, and prints the time per request; then the same request's
// services built by hand, as `--wiring hand` builds them.
//
//     swift run -c release RequestCost [iterations]
//
// Times are wall-clock on one thread: on a shared machine, compare the steps of one
// run with each other rather than with another run's.

//     swift run -c release RequestCost --memory
//
// measures instead the memory a `shutdown(timeout:)` holds until its timeout passes.

let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let measuresMemory = CommandLine.arguments.contains("--memory")

/// The resident memory of this process, in MiB (Linux; 0 elsewhere).
func residentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kB = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return kB / 1024
}

/// Runs `body` `iterations` times (after 1,000 to warm up) and prints the time per run.
func measure(_ name: String, _ body: () async throws -> Void) async rethrows -> Double {
    for _ in 0..<1000 { try await body() }
    let start = ContinuousClock.now
    for _ in 0..<iterations { try await body() }
    let elapsed = ContinuousClock.now - start
    let nanoseconds =
        (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(iterations)
    print(String(format: "%9.0f ns  %@", nanoseconds, name))
    return nanoseconds
}

/// The steps, each with those before it.
func requestSteps(upTo step: Int) async throws {
    let container = Container()
    container.manager.isPerRequest = true
    guard step >= 2 else { return }
    _ = container.requestCounter().next()
    guard step >= 3 else { return }
    let user = User(id: "ann")
    container.currentUser.register { user }
    container.requestID.register { "req-1" }
    guard step >= 4 else { return }
    Container.$shared.withValue(container) {
        // The /whoami handler's resolutions.
        let session = Container.shared.session()
        _ = Container.shared.requestCounter()
        _ = Container.shared.inFlight()
        _ = Container.shared.session()
        _ = Container.shared.greeter().greet()
        _ = session
    }
    guard step >= 5 else { return }
    try await container.manager.shutdown(timeout: .seconds(1))
}

/// 50,000 request containers shut down with a timeout longer than the run, so that no
/// timer that started is given back: the memory they hold.
func measureHeldMemory() async throws {
    let held = 50_000
    let before = residentMiB()
    for _ in 0..<held {
        let container = Container()
        container.currentUser.register { User(id: "ann") }
        container.requestID.register { "req-1" }
        _ = container.session()
        try await container.manager.shutdown(timeout: .seconds(600))
    }
    let grown = residentMiB() - before
    print(
        String(
            format:
                "%d shutdowns with a 600-s timeout: resident memory %.1f MiB more, %.0f bytes per shutdown until its timeout passes",
            held, grown, grown * 1_048_576 / Double(held)))
}

// Off the main actor: each call stays on this task's thread.
try await Task.detached {
    if measuresMemory {
        try await measureHeldMemory()
        return
    }
    print("RequestCost: \(iterations) iterations per step; ns per request, each step with those above it")
    // A running server's singletons exist already.
    _ = Container.shared.requestCounter()
    _ = Container.shared.inFlight()

    var previous = 0.0
    let steps = [
        "Container(), isPerRequest, released",
        "+ requestCounter().next(): the first resolution in the container, a singleton hit",
        "+ currentUser.register, requestID.register",
        "+ the /whoami handler's 8 resolutions (2 builds, 2 registrations read, 4 hits) in Container.$shared.withValue",
        "+ manager.shutdown(timeout: 1 s), which ends the session",
    ]
    var perStep: [Double] = []
    let before = residentMiB()
    for (index, name) in steps.enumerated() {
        let total = try await measure(name) { try await requestSteps(upTo: index + 1) }
        perStep.append(total - previous)
        previous = total
    }
    let after = residentMiB()
    print(String(format: "   steps alone: %@ ns", perStep.map { String(format: "%.0f", $0) }.joined(separator: ", ") as NSString))
    let hand = await measure("by hand: RequestSession, Greeter, end(), as HandRequestScope does (no container)") {
        let session = RequestSession(user: User(id: "ann"), requestID: "req-1")
        _ = Greeter(session: session).greet()
        session.end()
    }
    print(
        String(
            format: "the library's share of one /whoami request: %.1f µs (%.1f µs with a container, %.1f µs by hand)",
            (previous - hand) / 1000, previous / 1000, hand / 1000))

    // Memory: a shutdown whose timer started keeps it until the timeout passes.
    try await Task.sleep(for: .seconds(3))
    print(
        String(
            format: "resident memory: %.1f MiB before the steps, %.1f MiB after them, %.1f MiB 3 s later",
            before, after, residentMiB()))
    let warm = Container()
    _ = warm.requestCounter()
    _ = await measure("for comparison: requestCounter() again in a container that resolved it before") {
        _ = warm.requestCounter()
    }
}.value
