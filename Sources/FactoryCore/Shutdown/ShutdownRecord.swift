/// An `onShutdown` closure (FactoryScopes) stored untyped, wrapped to read the instance out of
/// its cell as the closure's type.
@usableFromInline
package final class ShutdownHandler: Sendable {
    #if SwiftConcurrency
    let run: @Sendable (CacheCell, FactoryKey) async throws -> Void

    init(_ run: @escaping @Sendable (CacheCell, FactoryKey) async throws -> Void) { self.run = run }
    #endif
}

#if SwiftConcurrency
extension FactoryRegistration {
    /// The factory's shutdown (FactoryScopes' `onShutdown`): `shutdown` gets the cached instance as `T`. The cell was
    /// stored for this key, whose value type is `T`; checked all the same, since a mismatch would hand the closure a
    /// value of another type.
    package mutating func setShutdown<T: Sendable>(
        _ shutdown: @escaping @Sendable (T) async throws -> Void, caller: StaticString
    ) {
        setShutdown(
            ShutdownHandler { cell, key in
                guard cell.valueType == T.self, let value = cell.read(T.self) else {
                    FactoryError.fail(.shutdownTypeMismatch(key))
                }
                try await shutdown(value)
            }, caller: caller)
    }
}
#endif

/// A cached instance's shutdown: its factory, its order, and whether it started. Shared by every
/// cell holding the instance (a registration's singleton is also the storage's), so it runs once.
@usableFromInline
package final class ShutdownRecord: Sendable {
    package let handler: ShutdownHandler
    package let key: FactoryKey
    /// Process-wide construction order: a dependent is stored after what it was built on, so
    /// decreasing order closes dependents first.
    package let order: Int
    private let started = AtomicWord()

    private static let counter = AtomicWord()

    package init(handler: ShutdownHandler, key: FactoryKey) {
        self.handler = handler
        self.key = key
        order = Self.counter.add(1)
    }

    /// `false` if the shutdown had started already.
    package func claim() -> Bool { started.compareExchange(expected: 0, desired: 1) }
}
