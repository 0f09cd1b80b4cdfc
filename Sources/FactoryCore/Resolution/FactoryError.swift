/// The ways a misused factory stops the program, with the message each prints.
///
/// Every message names the factory as `Container.name<Type>` so the log line alone
/// says where to look.
package enum FactoryError: Sendable {
    /// A factory was resolved again, with an equal parameter, while it was being
    /// built on the same thread.
    case circularDependency(chain: String)
    /// Threads, or tasks running async builds, wait for each other's builds in a
    /// loop; the report names every thread's or task's chain.
    case crossThreadCycle(String)
    /// A `promised()` factory was resolved before anything was registered for it.
    case unregisteredPromise(FactoryKey)
    /// A factory whose closure is isolated to the main actor was resolved off the main actor.
    case mainActorRequired(FactoryKey)
    /// `timeToLive` was given a negative or non-finite interval.
    case invalidTimeToLive(FactoryKey, seconds: Double)
    /// A ``CacheStrategy`` returned, for a second container, a cache that another container uses.
    case scopeCacheShared(FactoryKey)
    /// A ``CacheStrategy`` returned, for a factory, a cache that another factory (`owner`) uses.
    case scopeCacheOfAnotherFactory(FactoryKey, owner: FactoryKey)
    /// A factory was resolved after its container's `shutdown()` started.
    case resolvedAfterShutdown(FactoryKey)
    /// An `onShutdown` closure was about to run on an instance of another type.
    case shutdownTypeMismatch(FactoryKey)
    /// A thread took a lock it already holds (DEBUG builds, where locks check it).
    case lockReentered(owner: String)
    /// A lock call failed: what went wrong, and the type whose lock it is.
    case lockMisused(String, owner: String)

    package var message: String {
        switch self {
        case .circularDependency(let chain):
            return "FactoryCore: circular dependency chain - \(chain)"
        case .crossThreadCycle(let report):
            return "FactoryCore: circular dependency across threads or tasks (each waits for a build of the other) - \(report)"
        case .unregisteredPromise(let key):
            return "FactoryCore: \(key) was promised but nothing is registered for it; "
                + "register it before resolving, or set manager.promiseTriggersError = false to get nil"
        case .mainActorRequired(let key):
            return "FactoryCore: \(key) has a factory closure isolated to the main actor but was resolved off the main actor; "
                + "resolve it from the main actor, or with resolveOnMainActor()"
        case .invalidTimeToLive(let key, let seconds):
            return "FactoryScopes: timeToLive for \(key) needs a finite, non-negative number of seconds, got \(seconds)"
        case .scopeCacheShared(let key):
            return "FactoryCore: the CacheStrategy of \(key)'s scope returned a ScopeCache that another container uses; "
                + "return a separate ScopeCache for each container"
        case .scopeCacheOfAnotherFactory(let key, let owner):
            return "FactoryCore: the CacheStrategy of \(key)'s scope returned a ScopeCache that \(owner) uses; "
                + "return a separate ScopeCache for each factory"
        case .resolvedAfterShutdown(let key):
            return "FactoryCore: \(key) was resolved after its container was shut down (manager.shutdown()); "
                + "a shut-down container builds nothing: resolve from a container that is still running"
        case .shutdownTypeMismatch(let key):
            return "FactoryCore: the onShutdown closure of \(key) was given an instance of another type"
        case .lockReentered(let owner):
            return "FactoryCore: the lock of a \(owner) was taken again by the thread that holds it: code run under "
                + "that lock re-entered it (in a release build this thread would hang)"
        case .lockMisused(let problem, let owner):
            return "FactoryCore: the lock of a \(owner): \(problem)"
        }
    }

    /// Stops the program with ``message``, followed by the running test's name when
    /// FactoryTesting knows it.
    package static func fail(_ error: FactoryError, file: StaticString = #fileID, line: UInt = #line) -> Never {
        // FactoryTesting graph validation records the failure and never returns here.
        if let validation = ResolutionContext.current.validation { validation.abort(error) }
        var message = error.message
        if let test = FactoryTestHooks.reporter?.currentTestName {
            message += " (in test \(test))"
        }
        fatalError(message, file: file, line: line)
    }

    /// Reports a misuse resolution can go past (it then resolves to `nil`): to the
    /// running graph validation or test if there is one, else stops the program.
    package static func report(_ error: FactoryError, file: StaticString = #fileID, line: UInt = #line) {
        if let validation = ResolutionContext.current.validation {
            validation.record(error)
            return
        }
        if let reporter = FactoryTestHooks.reporter, reporter.recordIssue(error.message) {
            return
        }
        fail(error, file: file, line: line)
    }
}

/// FactoryTesting's graph validation hook: what a validating thread does instead
/// of stopping the program.
///
/// A thread that validates a graph sets ``ResolutionContext/validation`` on its own
/// context, so the hook is per thread and never seen by other resolutions. Swift
/// cannot unwind out of a factory closure, so a failure that resolution cannot go
/// past (a cycle) goes to ``abort(_:)``, which must never return: FactoryTesting
/// records it and parks the validating thread. A failure that resolution can go
/// past (an unregistered promise, which then resolves to `nil`) goes to ``record(_:)``.
package protocol ResolutionValidating: AnyObject {
    /// Records a failure after which resolution goes on.
    func record(_ error: FactoryError)
    /// Records a failure after which resolution cannot go on; never returns.
    func abort(_ error: FactoryError) -> Never
    /// Records a longer-lived instance capturing a shorter-lived one; resolution goes on.
    func captured(_ capture: CaptiveDependency)
    /// Records that `child` was resolved (built or from a cache) inside the build
    /// of `parent`, or at the top level when `parent` is `nil`; `scope` describes
    /// how `child` is kept (see ``CaptiveDependency/holderScope``).
    func resolved(_ child: FactoryKey, scope: String, parent: FactoryKey?)
}

/// What FactoryTesting tells the core about the test that is running.
package protocol FactoryTestReporting: Sendable {
    /// Records `message` as a failure of the running test; `false` when no test
    /// managed by FactoryTesting is running on this task or thread.
    func recordIssue(_ message: String) -> Bool
    /// The running test's name, for messages that stop the program.
    var currentTestName: String? { get }
}

/// The hooks FactoryTesting installs. Read only on failure paths.
package enum FactoryTestHooks {
    private static let installed = LockedBox<(any FactoryTestReporting)?>(nil)

    /// The reporter FactoryTesting installed, if it is linked and in use.
    package static var reporter: (any FactoryTestReporting)? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}
