#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The threads graph validation resolves on, and how the caller waits for them.
///
/// A failure such as a cycle happens deep inside factory closures, which cannot
/// be unwound and need a value to go on. The only sound way to stop such a
/// resolution is to never return to it: the thread reports, wakes the caller and
/// parks for good. So validation resolves on threads it can afford to lose.
enum ValidationThread {
    /// Validation threads get the stack a main thread has, for deep graphs.
    private static let stackSize = 8 << 20

    /// Starts a detached thread running `body`.
    static func start(_ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        check(pthread_attr_init(&attributes), "pthread_attr_init")
        defer { check(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
        check(pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)), "pthread_attr_setdetachstate")
        check(pthread_attr_setstacksize(&attributes, stackSize), "pthread_attr_setstacksize")
        let start = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, start)
        #else
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, start)
        #endif
        check(result, "pthread_create")
    }

    /// Stops the program naming the call that failed, as FactoryCore's lock does:
    /// validation cannot go on without its thread.
    private static func check(_ result: Int32, _ call: String) {
        if result != 0 { fatalError("FactoryTesting: \(call) failed with error \(result) starting a graph validation thread") }
    }

    /// Blocks the calling thread forever, without returning to its caller.
    static func park() -> Never {
        while true {
            sleep(3600)
        }
    }
}

/// The closure a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

/// A one-shot wake-up from a validation thread to the caller, over a pipe: the
/// caller can wait on it even when the thread that fires it never finishes.
struct ValidationSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [0, 0]
        let result = pipe(&ends)
        precondition(result == 0, "FactoryTesting: cannot create a pipe for graph validation (errno \(errno))")
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes the waiting caller; call once, from the validation thread.
    func fire() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
        close(writeEnd)
    }

    /// Blocks until ``fire()`` was called or `seconds` passed; returns whether it
    /// was fired. Call until it returns `true`, from the caller. The pipe is
    /// closed only then: a thread still running may fire it later, and a write to
    /// a pipe nobody can read stops the process (`SIGPIPE`).
    func wait(upTo seconds: Double) -> Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(seconds * 1_000, Double(Int32.max)))
        let ready = poll(&descriptor, 1, milliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { return false }
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
        close(readEnd)
        return true
    }
}
