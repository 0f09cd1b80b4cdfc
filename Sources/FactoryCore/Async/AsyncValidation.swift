#if SwiftConcurrency
/// What an async resolution throws, instead of stopping the program, while
/// FactoryTesting's graph validation resolves it (``AsyncValidation/isActive``).
package struct AsyncValidationFailure: Error, Sendable {
    package let error: FactoryError
    /// The chain that failed, outermost first, ending with the factory resolved again.
    package let chain: [FactoryKey]
}

/// Marks the tasks of a graph validation: a cycle found in an async resolution
/// throws ``AsyncValidationFailure`` to the validator instead of stopping the program.
package enum AsyncValidation {
    @TaskLocal package static var isActive = false
    /// Where the closures of a validation's async factories log what they throw;
    /// `nil` outside FactoryTesting's catalog validation.
    @TaskLocal package static var thrown: AsyncThrowLog?
}

/// What the closures of async factories threw during one validated resolution,
/// in the order thrown, each with the chain it was thrown in: the error itself
/// reaches the caller unchanged, so a factory that catches it behaves as in the app,
/// and FactoryTesting can still name the factory that threw first.
package final class AsyncThrowLog: Sendable {
    /// One closure that threw: the chain from the outermost resolution to it, and the error.
    package struct Entry: Sendable {
        package let chain: [FactoryKey]
        package let error: String
    }

    private let entries = LockedBox<[Entry]>([])

    package init() {}

    /// Every closure that threw, in the order thrown.
    package var all: [Entry] {
        entries.withLock { $0 }
    }

    /// Logs `error`, thrown by the closure of the innermost resolution of the running task.
    static func log(_ error: any Error) {
        guard let log = AsyncValidation.thrown else { return }
        let entry = Entry(chain: AsyncChain.current?.keys ?? [], error: String(describing: error))
        log.entries.withLock { $0.append(entry) }
    }
}
#endif
