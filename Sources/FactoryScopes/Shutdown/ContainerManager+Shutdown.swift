import FactoryCore

#if SwiftConcurrency
extension FactoryModifying where T: Sendable {
    /// Declares how an instance this factory caches is shut down, when its
    /// container's ``ContainerManager/shutdown(includingSingletons:timeout:)`` runs.
    ///
    /// ```swift
    /// var client: Factory<HTTPClient> {
    ///     self { HTTPClient(eventLoopGroupProvider: .singleton) }
    ///         .singleton
    ///         .onShutdown { try await $0.shutdown() }
    /// }
    /// ```
    ///
    /// Only cached instances are shut down (`.cached`, `.singleton`, custom
    /// scopes): an instance a unique, graph or `.shared` factory hands out
    /// belongs to its caller. Applied outside the factory's definition it
    /// persists, like every modifier.
    ///
    /// - Parameters:
    ///   - caller: Leave the default: it tells the definition from a change made at run time.
    ///   - shutdown: Called once with the instance, with no lock held; may throw
    ///     (the error is reported with the others of the same shutdown).
    @discardableResult
    public consuming func onShutdown(
        caller: StaticString = #function, _ shutdown: @escaping @Sendable (T) async throws -> Void
    ) -> Self {
        registration.setShutdown(shutdown, caller: caller)
        return self
    }
}

extension ContainerManager {
    /// Shuts down what this container built: runs the `onShutdown` closure of
    /// every instance its caches hold, one at a time, in reverse order of
    /// construction (a pool built before the repository that uses it is shut
    /// down after it).
    ///
    /// ```swift
    /// extension Container {
    ///     var database: Factory<DatabasePool> {
    ///         self { DatabasePool() }.cached.onShutdown { try await $0.close() }
    ///     }
    /// }
    /// try await container.manager.shutdown()
    /// ```
    ///
    /// - The container is shut down from the moment this is called, for good: a
    ///   resolution from it that starts now or later throws
    ///   ``ContainerShutDownError`` (an asynchronous factory) or stops the
    ///   program with a message naming the factory (a synchronous one, which
    ///   cannot throw). A build already running finishes and is handed to the
    ///   resolution that started it, but is neither cached nor shut down; the
    ///   resolutions waiting for it fail as those that start after the call do.
    /// - What is shut down: instances of `.cached` factories and of custom scopes
    ///   this container used, with `includingSingletons` also the singletons of
    ///   the singleton storage it uses (the process's, outside tests: every
    ///   container shares them) and those its registrations keep. `.shared`
    ///   instances (the container does not own them), unique and graph instances
    ///   (their callers own them) and instances a reset, `register`, `pop()` or a
    ///   time-to-live expiry dropped earlier are not: only a shutdown knows that
    ///   nobody resolves from the container any more.
    /// - Each instance is shut down once, whichever container or call gets to it
    ///   first; calling this again shuts down nothing new.
    /// - Every closure runs even when an earlier one throws; the errors are thrown
    ///   together as one ``ShutdownError``.
    /// - Each closure runs in a task of its own: cancelling the caller does not
    ///   stop it. A closure still running after `timeout` is named in the
    ///   ``ShutdownError`` and left to finish in the background, and the next
    ///   one starts: a closure that hangs delays the others, never stops them.
    ///
    /// - Parameters:
    ///   - includingSingletons: Also shut down singletons. Pass `true` when the
    ///     whole application stops.
    ///   - timeout: How long each closure may take before the next one starts.
    /// - Throws: ``ShutdownError`` when a closure threw or the timeout passed.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func shutdown(includingSingletons: Bool = false, timeout: Duration = .seconds(30)) async throws(ShutdownError) {
        let items = takeForShutdown(includingSingletons: includingSingletons)
        guard !items.isEmpty else { return }
        let failures = await ShutdownRun.run(items, timeout: timeout)
        if !failures.isEmpty { throw ShutdownError(failures: failures) }
    }
}

/// What went wrong while a container shut down: every factory whose
/// `onShutdown` closure threw or had not finished when the timeout passed.
public struct ShutdownError: Error, CustomStringConvertible {
    /// One factory's instance that was not shut down cleanly.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The factory that built the instance.
        public let factory: FactoryKey
        /// What its `onShutdown` closure threw; `nil` when it had not finished
        /// when the timeout passed.
        public let error: (any Error)?

        /// Whether the timeout passed before this instance's shutdown finished.
        public var timedOut: Bool {
            error == nil
        }

        /// `Container.name<Type>: <error>`, or `... did not finish before the timeout`.
        public var description: String {
            guard let error else { return "\(factory): shutdown did not finish before the timeout" }
            return "\(factory): \(error)"
        }
    }

    /// The failures, in the order the shutdowns ran (latest built first).
    public let failures: [Failure]

    /// One line per failure.
    public var description: String {
        (["FactoryCore: \(failures.count) instance(s) did not shut down cleanly"] + failures.map { "  \($0)" })
            .joined(separator: "\n")
    }
}

/// One shutdown's closures, run one at a time, each in a task of its own raced against the timeout.
enum ShutdownRun {
    /// Runs `items`' closures in order and returns the failures. A closure still running after `timeout` is a
    /// failure and is left to finish in the background while the next starts: one that hangs delays the others by
    /// `timeout`, never forever.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(_ items: [ShutdownItem], timeout: Duration) async -> [ShutdownError.Failure] {
        var failures: [ShutdownError.Failure] = []
        for item in items {
            if let failure = await race(item, timeout: timeout) { failures.append(failure) }
        }
        return failures
    }

    /// The closure's failure, a timeout's, or `nil`, whichever comes first. The timer is cancelled when the
    /// closure ends, so a quick shutdown holds nothing until the deadline.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private static func race(_ item: ShutdownItem, timeout: Duration) async -> ShutdownError.Failure? {
        let race = LockedBox(Race())
        @Sendable func finish(_ failure: ShutdownError.Failure?) {
            // The first to finish takes the continuation; resumed, and the timer cancelled, with no lock held.
            let (continuation, timer) = race.withLock { race in
                defer { race = Race(continuation: nil, timer: nil, finished: true) }
                return (race.continuation, race.timer)
            }
            continuation?.resume(returning: failure)
            timer?.cancel()
        }
        return await withCheckedContinuation { continuation in
            race.withLock { $0.continuation = continuation }
            Task {
                do {
                    try await item.run()
                    finish(nil)
                } catch {
                    finish(ShutdownError.Failure(factory: item.key, error: error))
                }
            }
            // Started after the closure: a sleep, even cancelled, keeps a few hundred bytes in the runtime until its
            // deadline, so none is started for a closure that finished first.
            let timer = Task {
                guard !race.withLock({ $0.finished }), (try? await Task.sleep(for: timeout)) != nil else { return }
                finish(ShutdownError.Failure(factory: item.key, error: nil))
            }
            let finished = race.withLock { race in
                if !race.finished { race.timer = timer }
                return race.finished
            }
            if finished { timer.cancel() }
        }
    }

    private struct Race {
        var continuation: CheckedContinuation<ShutdownError.Failure?, Never>?
        var timer: Task<Void, Never>?
        var finished = false
    }
}
#endif
