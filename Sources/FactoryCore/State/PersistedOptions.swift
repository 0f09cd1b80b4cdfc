/// A closure registered with `register` or a context override, stored untyped
/// in a container and downcast by key to ``RegistrationBox``.
@usableFromInline
package class RegistrationBoxBase: @unchecked Sendable {
    // Sendable because `singletonCells` is only touched with the owning
    // container's manager lock held, `describesType` is written under that lock
    // before the box is published, and the rest is immutable.

    /// Which actor the closure is isolated to.
    package let isolation: ClosureIsolation
    /// Made while the container ran `autoRegister()`, or by `once()`: it describes
    /// the container type rather than this instance, so a singleton it builds is
    /// shared by every container of the type, as in Factory. Set by `register`
    /// under the manager's lock, before the box is published.
    @exclusivity(unchecked) package var describesType: Bool
    /// Singletons built by this registration when it does not describe the type;
    /// made on first use, with the manager lock held.
    @exclusivity(unchecked) package var singletonCells: CellSet?

    @usableFromInline
    package init(isolation: ClosureIsolation, describesType: Bool) {
        self.isolation = isolation
        self.describesType = describesType
    }
}

/// A registered closure for factories of parameter `P` and value `T`.
@usableFromInline
package final class RegistrationBox<P, T>: RegistrationBoxBase, @unchecked Sendable {
    // Sendable: see RegistrationBoxBase.
    @usableFromInline package let factory: FactoryClosure<P, T>

    @inlinable
    package init(_ factory: FactoryClosure<P, T>, isolation: ClosureIsolation, describesType: Bool) {
        self.factory = factory
        super.init(isolation: isolation, describesType: describesType)
    }
}

/// A decorator stored untyped in a container and downcast by key.
package class DecoratorBoxBase: @unchecked Sendable {
    // Sendable: no state of its own.
    package init() {}
}

/// A persisted decorator of a factory of value `T`.
package final class DecoratorBox<T>: DecoratorBoxBase, @unchecked Sendable {
    // Sendable: only an immutable `@Sendable` closure.
    package let decorator: @Sendable (T, Bool) -> Void

    package init(_ decorator: @escaping @Sendable (T, Bool) -> Void) {
        self.decorator = decorator
    }
}

/// A context override: use `box` when `type` matches the running context.
@usableFromInline
package struct ContextOverride: Sendable {
    package let type: FactoryContextType
    package let box: RegistrationBoxBase

    package init(type: FactoryContextType, box: RegistrationBoxBase) {
        self.type = type
        self.box = box
    }
}

/// What one factory of one container keeps beyond its definition: the
/// registration, context overrides, and modifiers applied at run time (or by
/// `once()`). Each field wins over the definition's own.
package struct FactoryOptions: Sendable {
    package var registration: RegistrationBoxBase?
    package var contexts: [ContextOverride] = []
    /// Whether a scope was set at run time; `scope` is that scope (`nil`: the container's default).
    package var hasScope = false
    package var scope: Scope?
    package var decorator: DecoratorBoxBase?
    /// An `onShutdown` applied at run time, which replaces the definition's.
    package var shutdown: ShutdownHandlerBase?
    /// Time-to-live in nanoseconds, when set at run time (0: none).
    package var ttl: UInt64?
    package var scopeOnParameters: Bool?
    /// `once()` persisted the definition's modifiers; the definition's own are ignored from now on.
    package var onceApplied = false

    package init() {}

    package var isEmpty: Bool {
        registration == nil && contexts.isEmpty && !hasScope && decorator == nil && shutdown == nil && ttl == nil
            && scopeOnParameters == nil && !onceApplied
    }
}

/// Published options of one factory: immutable, replaced as a whole under the
/// manager's lock and read lock-free inside a read section.
package final class PersistedOptions: Sendable {
    package let value: FactoryOptions

    package init(_ value: FactoryOptions) {
        self.value = value
    }
}
