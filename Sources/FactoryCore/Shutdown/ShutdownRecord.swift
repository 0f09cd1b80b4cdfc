/// How a factory's instance is shut down: the closure given to `onShutdown`,
/// stored untyped in a definition or a container and cast back to its instance
/// type only when it runs.
@usableFromInline
package class ShutdownHandlerBase: @unchecked Sendable {
    // Sendable: no state of its own; the subclass's closure is immutable and `@Sendable`.
    package init() {}

    #if SwiftConcurrency
    /// Shuts down the instance `cell` holds.
    nonisolated(nonsending) package func run(_ cell: CacheCell, key: FactoryKey) async throws {
        preconditionFailure("ShutdownHandlerBase.run is overridden by ShutdownHandler")
    }
    #endif
}

#if SwiftConcurrency
/// The `onShutdown` closure of a factory of value `T`.
package final class ShutdownHandler<T: Sendable>: ShutdownHandlerBase, @unchecked Sendable {
    // Sendable: see ShutdownHandlerBase.
    let body: @Sendable (T) async throws -> Void

    package init(_ body: @escaping @Sendable (T) async throws -> Void) {
        self.body = body
    }

    nonisolated(nonsending) override package func run(_ cell: CacheCell, key: FactoryKey) async throws {
        // The cell was stored for `key`, whose value type is `T`; checked all the same,
        // since a mismatch here would hand the closure a value of another type.
        guard cell.valueType == T.self, let value = cell.read(T.self) else { FactoryError.fail(.shutdownTypeMismatch(key)) }
        try await body(value)
    }
}
#endif

/// One cached instance that declared how it is shut down: which factory built
/// it, in which order, and whether its shutdown has started.
///
/// Shared by every cell that holds the same instance (a registration's singleton
/// is also published as the storage's shared one), so that it is shut down once.
@usableFromInline
package final class ShutdownRecord: Sendable {
    package let handler: ShutdownHandlerBase
    package let key: FactoryKey
    /// Construction order across the process: an instance built on another is
    /// stored after it, so shutting down in decreasing order closes dependents first.
    package let order: Int
    private let started = AtomicWord()

    private static let counter = AtomicWord()

    package init(handler: ShutdownHandlerBase, key: FactoryKey) {
        self.handler = handler
        self.key = key
        order = Self.counter.add(1)
    }

    /// Marks the shutdown as started; `false` if it had started already.
    package func claim() -> Bool {
        started.compareExchange(expected: 0, desired: 1)
    }
}
