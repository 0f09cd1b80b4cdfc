/// A closure registered with `register` or a context override, stored untyped
/// in a definition or a container and downcast by key to ``RegistrationBox``.
@usableFromInline
package class RegistrationBoxBase: @unchecked Sendable {
    // Sendable because `cells` is only touched with the owning container's
    // manager lock held, `describesType` is written under that lock before the
    // box is published, and the rest is immutable.

    /// Which actor the closure is isolated to.
    package let isolation: ClosureIsolation
    /// Made while the container ran `autoRegister()`, or by `once()`: it describes
    /// the container type rather than this instance, so a scope that shares
    /// instances between containers shares what it builds, as in Factory. Set by
    /// `register` under the manager's lock, before the box is published.
    @exclusivity(unchecked) package var describesType: Bool
    /// Instances a scope's strategy keeps with this registration rather than in a
    /// container or a global storage (FactoryScopes' singleton strategy keeps the
    /// singleton of a registration made on one container instance here); made on
    /// first use by the strategy, with the manager lock held. Resets and shutdown
    /// empty it with the factory's other instances.
    @exclusivity(unchecked) package var cells: CellSet?

    @usableFromInline
    package init(isolation: ClosureIsolation, describesType: Bool) {
        self.isolation = isolation
        self.describesType = describesType
    }
}

/// A registered closure of a factory whose ``FactoryModifying/Closure`` is `Closure`.
///
/// The key it is kept under determines `Closure`: every kind's closure type is a
/// function of its `P` and `T` (`(P) -> T`, or `@Sendable (P) async throws -> T`
/// for the asynchronous kinds, whose keys wrap `P` in ``AsyncKind``), and a key
/// names the kind's parameter type and `T`. A ``Factory`` and a
/// ``ParameterFactory`` with a `Void` parameter share their keys and their
/// closure type alike.
@usableFromInline
package final class RegistrationBox<Closure>: RegistrationBoxBase, @unchecked Sendable {
    // Sendable: see RegistrationBoxBase; the closure's isolation is recorded and
    // checked before it runs (FactoryModifying+Registration.swift).
    @usableFromInline package let closure: Closure

    @usableFromInline
    package init(_ closure: Closure, isolation: ClosureIsolation) {
        self.closure = closure
        super.init(isolation: isolation, describesType: false)
    }
}

/// A decorator stored untyped in a definition or a container, and called with
/// the instance's address by the engine, which does not know its type.
@usableFromInline
package class DecoratorBoxBase: @unchecked Sendable {
    // Sendable: no state of its own.
    package init() {}

    /// Calls the decorator with the instance at `value`, of the factory's value type.
    package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        preconditionFailure("DecoratorBoxBase.decorate is overridden by DecoratorBox")
    }
}

/// A decorator of a factory of value `T`.
@usableFromInline
package final class DecoratorBox<T>: DecoratorBoxBase, @unchecked Sendable {
    // Sendable: only an immutable `@Sendable` closure.
    package let decorator: @Sendable (T, Bool) -> Void

    @usableFromInline
    package init(_ decorator: @escaping @Sendable (T, Bool) -> Void) {
        self.decorator = decorator
    }

    /// `value` points at a `T`: a box is made by a factory of value `T` and kept
    /// under that factory's key (in its definition, or in its container's slot),
    /// and the engine calls it with that factory's instances only.
    override package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        decorator(value.assumingMemoryBound(to: T.self).pointee, isNew)
    }
}
