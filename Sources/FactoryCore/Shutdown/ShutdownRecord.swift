/// How a factory's instance is shut down: the `onShutdown` closure (FactoryScopes),
/// stored untyped in a definition or a container, wrapped in a closure that
/// reads the instance out of its cell as the closure's type.
@usableFromInline
package final class ShutdownHandler: Sendable {
    #if SwiftConcurrency
    /// Shuts down the instance the cell holds, of the factory the key names.
    package let run: @Sendable (CacheCell, FactoryKey) async throws -> Void

    package init(_ run: @escaping @Sendable (CacheCell, FactoryKey) async throws -> Void) {
        self.run = run
    }
    #endif
}

/// One cached instance that declared how it is shut down: which factory built
/// it, in which order, and whether its shutdown has started.
///
/// Shared by every cell that holds the same instance (a registration's singleton
/// is also published as the storage's shared one), so that it is shut down once.
@usableFromInline
package final class ShutdownRecord: Sendable {
    package let handler: ShutdownHandler
    package let key: FactoryKey
    /// Construction order across the process: an instance built on another is
    /// stored after it, so shutting down in decreasing order closes dependents first.
    package let order: Int
    private let started = AtomicWord()

    private static let counter = AtomicWord()

    package init(handler: ShutdownHandler, key: FactoryKey) {
        self.handler = handler
        self.key = key
        order = Self.counter.add(1)
    }

    /// Marks the shutdown as started; `false` if it had started already.
    package func claim() -> Bool {
        started.compareExchange(expected: 0, desired: 1)
    }
}
