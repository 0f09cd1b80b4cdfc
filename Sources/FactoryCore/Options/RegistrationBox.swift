/// A `register` or context-override closure, stored untyped and downcast by key to ``RegistrationBox``.
@usableFromInline
package class RegistrationBoxBase: @unchecked Sendable {
    // Sendable: `cells` is only touched under the owning manager's lock, `describesType` is
    // written under it before publication, and the rest is immutable.

    package let isolation: ClosureIsolation
    /// Made during `autoRegister()` or by `once()`: describes the container type, not this
    /// instance, so a scope shared between containers shares what it builds, as in Factory.
    @exclusivity(unchecked) package var describesType: Bool
    /// Instances a strategy keeps with this registration (FactoryScopes' singleton of a registration on one container
    /// instance); made lazily under the manager lock, emptied by resets and shutdown.
    @exclusivity(unchecked) package var cells: CellSet?

    @usableFromInline
    package init(isolation: ClosureIsolation, describesType: Bool) {
        self.isolation = isolation
        self.describesType = describesType
    }
}

/// A registered closure of a factory whose ``FactoryModifying/Closure`` is `Closure`. Its key determines `Closure`: a
/// key names `P` (wrapped in ``AsyncKind`` for async kinds) and `T`, and each kind's closure type is a function of
/// them, so a ``Factory`` and a `Void` ``ParameterFactory`` share keys and closure type.
@usableFromInline
package final class RegistrationBox<Closure>: RegistrationBoxBase, @unchecked Sendable {
    // Sendable: see RegistrationBoxBase; the closure's isolation is checked before it runs.
    @usableFromInline package let closure: Closure

    @usableFromInline
    package init(_ closure: Closure, isolation: ClosureIsolation) {
        self.closure = closure
        super.init(isolation: isolation, describesType: false)
    }
}

/// A decorator stored untyped, called by the type-unaware engine with the instance's address.
@usableFromInline
package class DecoratorBoxBase: @unchecked Sendable {
    // Sendable: no state of its own.
    package init() {}

    package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        preconditionFailure("DecoratorBoxBase.decorate is overridden by DecoratorBox")
    }
}

@usableFromInline
package final class DecoratorBox<T>: DecoratorBoxBase, @unchecked Sendable {
    // Sendable: only an immutable `@Sendable` closure.
    package let decorator: @Sendable (T, Bool) -> Void

    @usableFromInline
    package init(_ decorator: @escaping @Sendable (T, Bool) -> Void) { self.decorator = decorator }

    /// `value` points at a `T`: the box is kept under its factory's key, and the engine calls it
    /// with that factory's instances only.
    override package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        decorator(value.assumingMemoryBound(to: T.self).pointee, isNew)
    }
}
