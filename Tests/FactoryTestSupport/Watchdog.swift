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
public func finishes(_ count: Int, within seconds: Double = watchdogBound, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let done = Counter()
    for index in 0..<count {
        startThread {
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
}

/// Runs `body`, stopping the test process with `message` if it does not finish
/// within ``watchdogBound``: the watchdog is a thread, so it fires even when every
/// thread of the cooperative pool is stuck (a deadlock, a task suspended forever).
public func withAsyncWatchdog<R: Sendable>(
    _ message: String = "did not finish: a deadlock", _ body: () async throws -> R
) async rethrows -> R {
    let done = Signal()
    startThread {
        if !done.wait(upTo: watchdogBound) { fatalError("\(message) (watchdog, \(Int(watchdogBound)) s)") }
    }
    defer { done.raise() }
    return try await body()
}

/// Runs `body` on a new thread (not the main one) and waits until it returns, up
/// to ``watchdogBound``: how the exit tests resolve a main-actor factory off the
/// main actor.
public func runOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let finished = Signal()
    startThread {
        body()
        finished.raise()
    }
    finished.wait()
}

/// The message that stops a program which resolved the main-actor factory `factory`
/// (`Container.name<Type>`) off the main actor.
public func offMainActorMessage(_ factory: String) -> String {
    "FactoryCore: \(factory) has a factory closure isolated to the main actor but was resolved off the main actor"
}
