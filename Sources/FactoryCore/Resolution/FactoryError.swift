import CFactoryAtomics

/// The ways a misused factory stops the program. Every message names the factory as
/// `Container.name<Type>`, so the log line alone says where to look.
package enum FactoryError: Sendable {
    case circularDependency(chain: String)
    case crossThreadCycle(String)  // threads, or tasks running async builds, waiting for each other's builds in a loop
    case unregisteredPromise(FactoryKey)
    case mainActorRequired(FactoryKey)
    case invalidTimeToLive(FactoryKey, seconds: Double)
    case scopeCacheShared(FactoryKey)  // a CacheStrategy gave a second container a cache another one uses
    case scopeCacheOfAnotherFactory(FactoryKey, owner: FactoryKey)
    case resolvedAfterShutdown(FactoryKey)
    case shutdownTypeMismatch(FactoryKey)
    case lockReentered(owner: String)  // DEBUG builds, where locks check it
    case lockMisused(String, owner: String)
    case libraryCopies(String)  // the loader found another copy of the library in the process; the report names both

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
        case .libraryCopies(let report):
            return report
        }
    }

    /// Appends the running test's name when FactoryTesting knows it.
    package static func fail(_ error: FactoryError, file: StaticString = #fileID, line: UInt = #line) -> Never {
        // FactoryTesting graph validation records the failure and never returns here.
        if let validation = ResolutionContext.current.validation { validation.abort(error) }
        var message = error.message
        if let test = FactoryTestHooks.reporter?.currentTestName {
            message += " (in test \(test))"
        }
        fatalError(message, file: file, line: line)
    }

    /// A misuse resolution goes past (resolving `nil`): to the running validation or test, else fails.
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

/// Graph validation's per-thread hook (``ResolutionContext/validation``). Swift cannot unwind out of a factory closure,
/// so a failure resolution cannot go past (a cycle) goes to ``abort(_:)``, which never returns (FactoryTesting parks
/// the thread); one it can (an unregistered promise, resolving `nil`) goes to ``record(_:)``.
package protocol ResolutionValidating: AnyObject {
    func record(_ error: FactoryError)
    func abort(_ error: FactoryError) -> Never
    func captured(_ capture: CaptiveDependency)
    /// `child` resolved (built or cached) inside `parent`'s build, or at top level (`nil`).
    func resolved(_ child: FactoryKey, scope: String, parent: FactoryKey?)
}

/// What FactoryTesting tells the core about the running test.
package protocol FactoryTestReporting: Sendable {
    func recordIssue(_ message: String) -> Bool  // `false` when no FactoryTesting-managed test runs on this task or thread
    var currentTestName: String? { get }
}

/// The hooks FactoryTesting installs. Read only on failure paths.
package enum FactoryTestHooks {
    private static let installed = LockedBox<(any FactoryTestReporting)?>(nil)

    package static var reporter: (any FactoryTestReporting)? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}

extension FactoryError {
    /// Reports, once, a second copy of this library in the process (a dynamic library that links it statically
    /// has its own `Container.shared`, singletons and registrations): as misuse in DEBUG builds, on standard error
    /// in release ones; `FACTORY_ALLOW_LIBRARY_COPIES=1` silences it. Asked when this copy makes a container.
    static func reportLibraryCopies() {
        #if SwiftConcurrency
        guard let found = cfactory_library_copies() else { return }
        #if DEBUG
        report(.libraryCopies(String(cString: found)))
        #else
        cfactory_write_standard_error(found)
        #endif
        #endif
    }
}
