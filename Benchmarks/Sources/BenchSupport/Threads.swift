#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

private final class StartGate: Sendable {
    let open = Atomic<Bool>(false)
}

private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Runs `body` on `count` new OS threads at once (real pthreads, not tasks
/// on the cooperative pool) and returns when all of them have finished.
///
/// The threads spin on a shared gate so that they really run concurrently
/// rather than the first finishing before the last is created.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let gate = StartGate()
    var threads: [pthread_t] = []
    threads.reserveCapacity(count)
    for _ in 0..<count {
        let box = ThreadBody {
            while !gate.open.load(ordering: .acquiring) {}
            body()
        }
        let context = Unmanaged.passRetained(box).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
            #else
            let box = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        #if canImport(Darwin)
        threads.append(thread!)
        #else
        threads.append(thread)
        #endif
    }
    gate.open.store(true, ordering: .releasing)
    for thread in threads {
        pthread_join(thread, nil)
    }
}

/// Hands a value whose type makes no Sendable promise to another thread, for
/// resolvers that document their own thread safety (Swinject's
/// `synchronize()`d container).
public struct UncheckedSendable<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
