import Dispatch
import FactoryCore

/// One factory for graph validation to resolve.
///
/// Key paths to plain factories can be listed directly
/// (`validateGraph(\.api, \.feed)`); a `ParameterFactory` needs a
/// parameter to resolve with, so list it as an entry:
///
/// ```swift
/// Container.shared.validateGraph([
///     .factory(\.api),
///     .factory(\.greeter, parameter: "Ann"),
/// ])
/// ```
public struct GraphEntry<C: ManagedContainer> {
    /// Reads the factory from the container, on the calling thread, and turns it
    /// into something another thread can resolve.
    let prepare: (C) -> ValidationItem

    private init(prepare: @escaping (C) -> ValidationItem) {
        self.prepare = prepare
    }

    /// A factory, resolved as `container.factory()`.
    ///
    /// - Parameter keyPath: The factory's key path, e.g. `\.api`.
    public static func factory<T>(_ keyPath: KeyPath<C, Factory<T>>) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.key)") { _ = factory() }
        }
    }

    /// A parameter factory, resolved as `container.factory(parameter)`.
    ///
    /// - Parameters:
    ///   - keyPath: The factory's key path, e.g. `\.greeter`.
    ///   - parameter: What to resolve it with.
    public static func factory<P: Sendable, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.key)") { _ = factory(parameter) }
        }
    }

    /// An asynchronous factory, resolved as `try await container.factory()`.
    ///
    /// A cycle through `await` is reported like a synchronous one. An error the
    /// closure throws is its own business (a connection that failed, say), not a
    /// problem of the graph, and is not reported. A cycle among synchronous
    /// factories that the async closure resolves still stops the program. The
    /// resolution runs on the validation thread (Swift 6 task executors), except
    /// that waking from `Task.sleep` needs a free thread of the cooperative pool,
    /// which a synchronous test that blocks in validation may be holding.
    ///
    /// - Parameter keyPath: The factory's key path, e.g. `\.database`.
    public static func factory<T>(_ keyPath: KeyPath<C, AsyncFactory<T>>) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.registration.key)", resolveAsync: { _ = try await factory() })
        }
    }

    /// An asynchronous parameter factory, resolved as `try await container.factory(parameter)`.
    ///
    /// - Parameters:
    ///   - keyPath: The factory's key path.
    ///   - parameter: What to resolve it with.
    public static func factory<P: Sendable, T>(
        _ keyPath: KeyPath<C, AsyncParameterFactory<P, T>>, parameter: P
    ) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.registration.key)", resolveAsync: { _ = try await factory(parameter) })
        }
    }

    /// Any key path: a plain factory is resolved; anything else is reported, since
    /// it cannot be resolved without more information.
    static func keyPath(_ keyPath: PartialKeyPath<C>) -> Self {
        Self { container in
            switch container[keyPath: keyPath] {
            case let factory as any ResolvableWithoutParameter:
                return ValidationItem(name: "\(factory.key)") { factory.resolveDiscardingResult() }
            case let factory as any AsyncResolvableWithoutParameter:
                return ValidationItem(name: "\(factory.key)", resolveAsync: { try await factory.resolveDiscardingResult() })
            case let factory as any FactoryModifying:
                return ValidationItem(
                    name: "\(factory.key)",
                    problem: .missingParameter,
                    message: "\(factory.key) takes a parameter; list it as .factory(keyPath, parameter: ...)")
            default:
                return ValidationItem(
                    name: "\(keyPath)",
                    problem: .notAFactory,
                    message: "\(keyPath) is not a Factory of \(C.self)")
            }
        }
    }
}

/// A factory that can be resolved without a parameter: lets validation resolve a
/// `Factory<T>` found behind a type-erased key path.
protocol ResolvableWithoutParameter: Sendable {
    var key: FactoryKey { get }
    func resolveDiscardingResult()
}

extension Factory: ResolvableWithoutParameter {
    func resolveDiscardingResult() {
        _ = resolve()
    }
}

/// An async factory that can be resolved without a parameter (see ``ResolvableWithoutParameter``).
protocol AsyncResolvableWithoutParameter: Sendable {
    var key: FactoryKey { get }
    func resolveDiscardingResult() async throws
}

extension AsyncFactory: AsyncResolvableWithoutParameter {
    var key: FactoryKey { registration.key }
    func resolveDiscardingResult() async throws {
        _ = try await resolve()
    }
}

/// One factory, ready to be resolved on a validation thread.
struct ValidationItem: Sendable {
    /// How reports name it: the factory's key, or the key path when it is not a factory.
    let name: String
    /// Resolves the factory; `nil` when it cannot be resolved (see `problem`).
    let resolve: (@Sendable () -> Void)?
    let problem: GraphFailure.Kind?
    let message: String?

    init(name: String, resolve: @escaping @Sendable () -> Void) {
        self.name = name
        self.resolve = resolve
        self.problem = nil
        self.message = nil
    }

    /// An async factory: the validation thread waits for a task that resolves it
    /// with ``AsyncValidation/isActive`` set, so a cycle comes back as an error.
    init(name: String, resolveAsync: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.resolve = {
            let outcome = LockedBox<AsyncValidationFailure?>(nil)
            let operation: @Sendable () async -> Void = {
                do {
                    try await AsyncValidation.$isActive.withValue(true) { try await resolveAsync() }
                } catch let failure as AsyncValidationFailure {
                    outcome.withLock { $0 = failure }
                } catch {
                    // The closure's own error: not a problem of the graph.
                }
            }
            Self.runAsync(operation)
            if let failure = outcome.withLock({ $0 }),
                let worker = ResolutionContext.current.validation as? ValidationWorker
            {
                worker.record(failure.error, chain: failure.chain)
            }
        }
        self.problem = nil
        self.message = nil
    }

    /// Runs `operation` to its end, or until `deadline`, blocking this validation
    /// thread; `false` when the deadline passed first.
    @discardableResult
    static func runAsync(_ operation: @escaping @Sendable () async -> Void, deadline: DispatchTime = .distantFuture) -> Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // The task, its children and the builds it starts run on this validation
            // thread: the test that asked for the validation may be blocking a thread of
            // the cooperative pool, so the pool cannot be counted on.
            return ValidationExecutor.run(operation, deadline: deadline)
        }
        let done = DispatchSemaphore(value: 0)
        Task {
            await operation()
            done.signal()
        }
        return done.wait(timeout: deadline) == .success
    }

    init(name: String, problem: GraphFailure.Kind, message: String) {
        self.name = name
        self.resolve = nil
        self.problem = problem
        self.message = message
    }
}

/// Runs an async validation on the calling (validation) thread: a task executor
/// whose jobs that thread runs until the validation's task ends.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ValidationExecutor: TaskExecutor {
    // A pthread-backed lock rather than `Mutex`: on Linux a contended `Mutex` hands over
    // through the kernel, an ordering ThreadSanitizer cannot see.
    private let jobs = LockedBox<[UnownedJob]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        arrived.signal()
    }

    /// Runs `operation` in a task that prefers this executor, and this executor's
    /// jobs on the calling thread until the task has finished, or until `deadline`
    /// has passed: then the task is abandoned (its later jobs never run) and the
    /// result is `false`.
    @discardableResult
    static func run(_ operation: @escaping @Sendable () async -> Void, deadline: DispatchTime = .distantFuture) -> Bool {
        let executor = ValidationExecutor()
        let finished = LockedBox(false)
        Task(executorPreference: executor) {
            await operation()
            finished.withLock { $0 = true }
            // Wakes the loop even when no job follows.
            executor.arrived.signal()
        }
        while !finished.withLock({ $0 }) {
            if executor.arrived.wait(timeout: deadline) == .timedOut { return finished.withLock { $0 } }
            let batch = executor.jobs.withLock { jobs -> [UnownedJob] in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in batch { job.runSynchronously(on: executor.asUnownedTaskExecutor()) }
        }
        return true
    }
}
