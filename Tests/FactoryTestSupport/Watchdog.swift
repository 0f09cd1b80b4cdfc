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

/// Runs `body(index)` on `count` new threads (of `stackSize` bytes of stack, if
/// given) and waits for them up to `seconds`. Returns whether they all finished;
/// threads that did not are left blocked.
///
/// The threads pass a barrier first, so every body starts once all threads
/// exist: bodies that race each other really run at the same time, instead of
/// one finishing before the next thread is even created. The barrier is bounded
/// by `seconds` too: if a thread never arrives, the others go on without it.
public func finishes(
    _ count: Int, within seconds: Double = watchdogBound, stackSize: Int? = nil,
    _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let done = Counter()
    let start = Barrier(count)
    for index in 0..<count {
        startThread(stackSize: stackSize) {
            start.arriveAndWait(upTo: seconds)
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
/// test fails, not the run: an issue saying `message` is recorded in the test
/// (at the caller), ``WatchdogTimeout`` is thrown, and `body`'s task is cancelled
/// and left behind. The bound is kept by a thread, and the wait ends, and the
/// issue is recorded, on a thread of the watchdog's own (``WatchdogExecutor``):
/// a test whose actor or pool threads are all blocked still fails, naming itself,
/// when the bound passes, and the process goes on. What comes after the call
/// runs once the caller's executor is free again.
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
    startThread {
        if poll(upTo: seconds, until: { race.isFinished }) { return }
        race.finish(.failure(WatchdogTimeout(message, seconds: seconds)), timedOut: true)
    }
    let issue = "\(message) (watchdog: not finished within \(formatted(seconds)) s)"
    let result: Result<R, any Error>
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        result = await withTaskExecutorPreference(WatchdogExecutor.shared) {
            await race.result(cancelling: task, recording: issue, at: sourceLocation)
        }
    } else {
        result = await race.result(cancelling: task, recording: issue, at: sourceLocation)
    }
    return try result.get()
}

/// `seconds` as a message shows it: `60`, `0.2`.
func formatted(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
}

/// The thread on which ``withAsyncWatchdog(_:within:sourceLocation:_:)`` waits
/// for its body and records a timeout: a task executor of its own, so that the
/// failure of a test whose executor (the main actor, every thread of the
/// cooperative pool) is blocked is still recorded in that test when its bound
/// passes. Its jobs only resume a wait and record an issue, and never block. The
/// thread is started by the first job and ends after a second without one.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class WatchdogExecutor: TaskExecutor, @unchecked Sendable {
    // Sendable because `jobs` and `running` are only touched with `condition` held.
    static let shared = WatchdogExecutor()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = false

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        let start = !running
        running = true
        condition.unlock()
        if start { startThread { self.runJobs() } }
    }

    private func runJobs() {
        while true {
            condition.lock()
            if jobs.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: 1)) }
            guard !jobs.isEmpty else {
                running = false
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

/// The first of a body's outcome and its watchdog's timeout, handed to the waiting test.
private final class Race<R: Sendable>: @unchecked Sendable {
    typealias Value = Result<R, any Error>
    typealias Outcome = (result: Value, timedOut: Bool)

    // Guarded by `lock`.
    private let lock = NSLock()
    private var outcome: Outcome?
    private var waiter: CheckedContinuation<Outcome, Never>?

    var isFinished: Bool {
        lock.withLock { outcome != nil }
    }

    /// Sets the outcome unless one is set already, and wakes the waiter.
    func finish(_ result: Value, timedOut: Bool) {
        let waiter = lock.withLock { () -> CheckedContinuation<Outcome, Never>? in
            guard outcome == nil else { return nil }
            outcome = (result, timedOut)
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: (result, timedOut))
    }

    /// Waits for the outcome; on a timeout, cancels `task` and records `issue` in
    /// the running test. Not isolated: it runs on the task's preferred executor
    /// (the watchdog's), whatever the caller's actor.
    func result(cancelling task: Task<Void, Never>, recording issue: String, at location: SourceLocation) async -> Value {
        let ended = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let ready = lock.withLock { () -> Outcome? in
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        if ended.timedOut {
            task.cancel()
            Issue.record(Comment(rawValue: issue), sourceLocation: location)
        }
        return ended.result
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
/// instead of going on as if the body had returned. For an exit test's body only,
/// which runs in a process of its own: anywhere else, use ``finishes(_:within:stackSize:_:)``.
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
