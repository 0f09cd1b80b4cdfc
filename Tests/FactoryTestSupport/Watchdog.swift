import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Watchdogs for tests that run real threads: work that deadlocks fails the test
// after a bounded wait instead of hanging the run. The bound is generous
// (sanitizer builds on a busy machine); the work itself takes milliseconds.

/// How long a watchdog waits, in seconds.
public let watchdogBound: Double = 60

/// Runs `body(index)` on `count` new threads and waits for them up to `seconds`.
/// Returns whether they all finished; threads that did not are left blocked.
///
/// The threads pass a barrier first, so every body starts once all threads
/// exist: bodies that race each other really run at the same time, instead of
/// one finishing before the next thread is even created.
public func finishes(_ count: Int, within seconds: Double = watchdogBound, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let done = Counter()
    let start = Barrier(count)
    for index in 0..<count {
        startThread {
            start.arriveAndWait()
            body(index)
            done.increment()
        }
    }
    return poll(upTo: seconds) { done.value == count }
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
public func poll(upTo seconds: Double = watchdogBound, until condition: () -> Bool) -> Bool {
    let deadline = monotonicSeconds() + seconds
    while !condition() {
        if monotonicSeconds() > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts a detached pthread, with `stackSize` bytes of stack if given (else the
/// system's default); the tests wait for their threads' work, not for the threads.
public func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize {
        precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "FactoryTestSupport: bad stack size \(stackSize)")
    }
    #if canImport(Darwin)
    var thread: pthread_t?
    let result = pthread_create(
        &thread, &attributes,
        { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    if result == 0, let thread { pthread_detach(thread) }
    #else
    var thread = pthread_t()
    let result = pthread_create(
        &thread, &attributes,
        { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    if result == 0 { pthread_detach(thread) }
    #endif
    precondition(result == 0, "FactoryTestSupport: pthread_create failed (\(result))")
}

/// A one-shot signal between threads: `raise()` once, `wait()` until raised (or the watchdog bound).
public final class Signal: Sendable {
    private let raised = Counter()

    /// Creates a signal that is not raised.
    public init() {}

    /// Raises the signal.
    public func raise() { raised.increment() }

    /// Whether the signal was raised.
    public var isRaised: Bool { raised.value > 0 }

    /// Waits until raised; returns `false` if the watchdog bound passed first.
    @discardableResult
    public func wait(upTo seconds: Double = watchdogBound) -> Bool {
        poll(upTo: seconds) { raised.value > 0 }
    }

    /// Suspends until raised (see ``waitFor(_:upTo:until:)``); `what` names the
    /// event in the error thrown when `seconds` pass first.
    public func raised(_ what: String, upTo seconds: Double = watchdogBound) async throws {
        try await waitFor(what, upTo: seconds) { isRaised }
    }
}

/// A wait in a test that did not end within its bound, naming what it waited for.
public struct WatchdogTimeout: Error, CustomStringConvertible {
    /// What the test waited for.
    public let waitedFor: String
    /// How long it waited, in seconds.
    public let seconds: Double

    /// Creates the error for a wait for `waitedFor` that lasted `seconds`.
    public init(_ waitedFor: String, seconds: Double) {
        self.waitedFor = waitedFor
        self.seconds = seconds
    }

    /// What was waited for, and for how long.
    public var description: String {
        "\(waitedFor) (waited \(formatted(seconds)) s)"
    }
}

/// Runs `body` in a task of its own and waits for it, up to `seconds`.
///
/// If it has not finished by then (a deadlock, a task suspended forever) the
/// test fails, not the run: an issue saying `message` is recorded at the
/// caller, ``WatchdogTimeout`` is thrown, and `body`'s task is cancelled and left
/// behind. The bound is kept by a thread, so it holds even when every thread of
/// the cooperative pool is stuck; if the pool is so stuck that the test cannot
/// even be resumed to fail, the process stops with `message` after another
/// ``watchdogBound``, rather than hang.
@discardableResult
public func withAsyncWatchdog<R: Sendable>(
    _ message: String = "did not finish: a deadlock",
    within seconds: Double = watchdogBound,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
    let race = Race<R>()
    let task = Task {
        do { race.finish(.success(try await body()), timedOut: false) } catch {
            race.finish(.failure(error), timedOut: false)
        }
    }
    let resumed = Signal()
    startThread {
        if poll(upTo: seconds, until: { race.isFinished }) { return }
        race.finish(.failure(WatchdogTimeout(message, seconds: seconds)), timedOut: true)
        // However short the body's bound, the test gets the full bound to resume.
        if !resumed.wait(upTo: watchdogBound) {
            fatalError("\(message) (watchdog, \(formatted(seconds)) s), and the test could not be resumed to fail")
        }
    }
    let (result, timedOut) = await race.outcome()
    resumed.raise()
    if timedOut {
        task.cancel()
        Issue.record("\(message) (watchdog: not finished within \(formatted(seconds)) s)", sourceLocation: sourceLocation)
    }
    return try result.get()
}

/// `seconds` as a message shows it: `60`, `0.2`.
private func formatted(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
}

/// The first of a body's outcome and its watchdog's timeout, handed to the waiting test.
private final class Race<R: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var outcome: (Result<R, any Error>, timedOut: Bool)?
    private var waiter: CheckedContinuation<(Result<R, any Error>, timedOut: Bool), Never>?

    var isFinished: Bool {
        lock.withLock { outcome != nil }
    }

    /// Sets the outcome unless one is set already, and wakes the waiter.
    func finish(_ result: Result<R, any Error>, timedOut: Bool) {
        let waiter = lock.withLock { () -> CheckedContinuation<(Result<R, any Error>, timedOut: Bool), Never>? in
            guard outcome == nil else { return nil }
            outcome = (result, timedOut)
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: (result, timedOut))
    }

    /// Waits for the outcome.
    func outcome() async -> (Result<R, any Error>, timedOut: Bool) {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> (Result<R, any Error>, timedOut: Bool)? in
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Suspends until `condition` holds, checking each millisecond.
///
/// - Throws: ``WatchdogTimeout`` naming `what` when `seconds` pass first, and
///   `CancellationError` once the task is cancelled: unlike a loop over
///   `try? await Task.sleep`, which spins at full speed once cancelled, a
///   test's time limit stops it.
public func waitFor(
    _ what: String, upTo seconds: Double = watchdogBound, until condition: () async -> Bool
) async throws {
    let deadline = monotonicSeconds() + seconds
    while await !condition() {
        if monotonicSeconds() > deadline { throw WatchdogTimeout(what, seconds: seconds) }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// Runs `body` on a new thread (not the main one) and waits until it returns, up
/// to `seconds`: how the exit tests resolve a main-actor factory off the main
/// actor. A body still running at the bound stops the process with a message
/// saying so: an exit test that expects another message fails showing this one,
/// instead of going on as if the body had returned.
public func runOnAnotherThread(upTo seconds: Double = watchdogBound, _ body: @escaping @Sendable () -> Void) {
    let finished = Signal()
    startThread {
        body()
        finished.raise()
    }
    if !finished.wait(upTo: seconds) {
        fatalError("runOnAnotherThread: the body did not return within \(seconds) s")
    }
}

/// The message that stops a program which resolved the main-actor factory `factory`
/// (`Container.name<Type>`) off the main actor.
public func offMainActorMessage(_ factory: String) -> String {
    "FactoryCore: \(factory) has a factory closure isolated to the main actor but was resolved off the main actor"
}
