#if SwiftConcurrency
/// Thrown instead of stopping the program while graph validation runs (``AsyncValidation/isActive``).
package struct AsyncValidationFailure: Error, Sendable {
    package let error: FactoryError
    /// Outermost first, ending with the factory resolved again.
    package let chain: [FactoryKey]
}

package enum AsyncValidation {
    @TaskLocal package static var isActive = false
    @TaskLocal package static var thrown: AsyncThrowLog?  // `nil` outside FactoryTesting's catalog validation
}

/// What async closures threw during one validated resolution, in order, with their chains. The
/// error reaches the caller unchanged, so a factory that catches it behaves as in the app, and
/// FactoryTesting can still name the factory that threw first.
package final class AsyncThrowLog: Sendable {
    package struct Entry: Sendable {
        package let chain: [FactoryKey]
        package let error: String
    }

    private let entries = LockedBox<[Entry]>([])

    package init() {}

    package var all: [Entry] { entries.withLock { $0 } }

    /// Thrown by the running task's innermost resolution's closure.
    static func log(_ error: any Error) {
        guard let log = AsyncValidation.thrown else { return }
        let entry = Entry(chain: AsyncChain.current?.keys ?? [], error: String(describing: error))
        log.entries.withLock { $0.append(entry) }
    }
}
#endif
