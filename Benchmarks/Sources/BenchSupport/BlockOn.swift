#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs `body` in a task and blocks the calling thread until it finishes: how a
/// synchronous scenario loop measures asynchronous resolutions. Called once per
/// sample, so its cost is spread over the sample's operations.
public func blockOn(_ body: @escaping @Sendable () async -> Void) {
    let done = Mutex(false)
    Task {
        await body()
        done.withLock { $0 = true }
    }
    while !done.withLock({ $0 }) { sched_yield() }
}
