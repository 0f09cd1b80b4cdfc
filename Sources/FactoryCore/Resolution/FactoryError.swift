/// The ways a misused factory stops the program, with the message each prints.
///
/// Every message names the factory as `Container.name<Type>` so the log line alone
/// says where to look.
package enum FactoryError {
    /// A factory resolved itself, directly or through others, on one thread.
    case circularDependency(chain: String)
    /// A `promised()` factory was resolved before anything was registered for it.
    case unregisteredPromise(FactoryKey)

    package var message: String {
        switch self {
        case .circularDependency(let chain):
            return "FactoryCore: circular dependency chain - \(chain)"
        case .unregisteredPromise(let key):
            return "FactoryCore: \(key) was promised but nothing is registered for it; "
                + "register it before resolving, or set manager.promiseTriggersError = false to get nil"
        }
    }

    /// Stops the program with ``message``.
    package static func fail(_ error: FactoryError, file: StaticString = #fileID, line: UInt = #line) -> Never {
        // FactoryTesting graph validation records the failure and never returns here.
        if let validation = ResolutionContext.current.validation { validation.abort(error) }
        fatalError(error.message, file: file, line: line)
    }
}
