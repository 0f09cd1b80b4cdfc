#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread mutex in its own allocation, so its address never moves.
///
/// The stress program brings its own primitives so that it exercises only the
/// library's public API and its checks do not lean on the lock under test.
final class Mutex: @unchecked Sendable {
    // Sendable because the only state is the primitive itself, which exists to be shared.
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
    }

    deinit {
        pthread_mutex_destroy(primitive)
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(primitive)
        defer { pthread_mutex_unlock(primitive) }
        return try body()
    }
}

/// A counter safe to bump from many threads.
final class Tally: @unchecked Sendable {
    // Sendable because `count` is only touched under `mutex`.
    private let mutex = Mutex()
    private var count = 0

    @discardableResult
    func increment() -> Int {
        mutex.withLock {
            count += 1
            return count
        }
    }

    var value: Int {
        mutex.withLock { count }
    }
}

/// Values collected from many threads.
final class Bag<Value>: @unchecked Sendable {
    // Sendable because `items` is only touched under `mutex`.
    private let mutex = Mutex()
    private var items: [Value] = []

    func append(_ value: Value) {
        mutex.withLock { items.append(value) }
    }

    var values: [Value] {
        mutex.withLock { items }
    }
}

/// Holds threads until every one of them exists, then lets them go at once.
private final class StartGate: @unchecked Sendable {
    // Sendable because `ready` and `open` are only touched under `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var ready = 0
    private var open = false

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Called by each thread: announces it and waits for ``open(after:)``.
    func arrive() {
        pthread_mutex_lock(mutex)
        ready += 1
        pthread_cond_broadcast(condition)
        while !open { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until `count` threads arrived, then releases them all.
    func open(after count: Int) {
        pthread_mutex_lock(mutex)
        while ready < count { pthread_cond_wait(condition, mutex) }
        open = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

private final class ThreadStart {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts a joinable pthread running `body` and returns the function that joins it.
private func startThread(_ body: @escaping @Sendable () -> Void) -> () -> Void {
    let context = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    let result = pthread_create(
        &thread, nil,
        { raw in
            Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    precondition(result == 0, "FactoryStress: pthread_create failed (\(result))")
    return { _ = pthread_join(thread!, nil) }
    #else
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
    precondition(result == 0, "FactoryStress: pthread_create failed (\(result))")
    return { _ = pthread_join(thread, nil) }
    #endif
}

/// Runs `body(index)` on `count` real threads that start together, and waits for all.
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let gate = StartGate()
    let joins = (0..<count).map { index in
        startThread {
            gate.arrive()
            body(index)
        }
    }
    gate.open(after: count)
    for join in joins { join() }
}

/// Stops the program if it has not finished within `seconds`: a deadlock must
/// fail the run, not hang it.
func startWatchdog(seconds: UInt32) {
    _ = startThread {
        sleep(seconds)
        print("FactoryStress: not finished after \(seconds) s: deadlock or livelock")
        exit(2)
    }
}

/// Sleeps the calling thread, so that a factory closure stays in flight long
/// enough for the other threads to arrive.
func pause(microseconds: UInt32) {
    usleep(microseconds)
}

/// Monotonic milliseconds, for the timings the program prints.
func milliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
}

/// Gives the processor to another thread, to shake up interleavings.
func yieldThread() {
    sched_yield()
}
