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
    /// - The closures run in a task of their own: cancelling the caller does not
    ///   stop them. After `timeout` this returns, throwing a ``ShutdownError``
    ///   that names the factories whose shutdown had not finished; the closure
    ///   running then is left to finish in the background, and those after it
    ///   are not started.
    ///
    /// - Parameters:
    ///   - includingSingletons: Also shut down singletons. Pass `true` when the
    ///     whole application stops.
    ///   - timeout: How long the closures may take, together.
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
        /// (or not started) when the timeout passed.
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

/// One shutdown's closures, run in order in a task of their own, raced against
/// a timeout.
final class ShutdownRun: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: Task<Void, Never>?
        /// How many items have finished.
        var finished = 0
        var failures: [ShutdownError.Failure] = []
        /// The run finished or timed out: the waiter was resumed.
        var over = false
    }

    private let items: [ShutdownItem]
    private let state = LockedBox(State())

    private init(_ items: [ShutdownItem]) {
        self.items = items
    }

    /// Runs `items`' closures, latest built first, and returns the failures.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func run(_ items: [ShutdownItem], timeout: Duration) async -> [ShutdownError.Failure] {
        let run = ShutdownRun(items)
        await withCheckedContinuation { continuation in
            run.state.withLock { $0.continuation = continuation }
            Task { await run.runAll() }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                run.end(timedOut: true)
            }
            run.state.withLock { $0.timer = timer }
        }
        let (failures, timer) = run.state.withLock { ($0.failures, $0.timer) }
        timer?.cancel()
        return failures
    }

    private func runAll() async {
        for item in items {
            guard !state.withLock({ $0.over }) else { return }
            do {
                try await item.run()
            } catch {
                state.withLock { state in
                    if !state.over { state.failures.append(ShutdownError.Failure(factory: item.key, error: error)) }
                }
            }
            state.withLock { $0.finished += 1 }
        }
        end(timedOut: false)
    }

    /// Ends the run once, by finishing or by timing out (every item not finished
    /// then is a failure), and resumes the waiter.
    private func end(timedOut: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.over else { return nil }
            state.over = true
            if timedOut {
                for item in items[state.finished...] {
                    state.failures.append(ShutdownError.Failure(factory: item.key, error: nil))
                }
            }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
#endif
