/// Everything one Factory value knows: its container, key, definition and modifiers.
///
/// Modifiers written in a factory's definition (`self { X() }.singleton`) only
/// change this value, which is rebuilt on every access of the container property,
/// so a definition costs nothing to re-evaluate. What must outlive the value —
/// `register`, context overrides, and modifiers chained after them — is persisted
/// in the container's manager and wins over the definition.
public struct FactoryRegistration<P, T>: Sendable {
    @usableFromInline package let container: any ManagedContainer
    @usableFromInline package let key: FactoryKey
    @usableFromInline package var factory: FactoryClosure<P, T>
    @usableFromInline package var scope: Scope?
    @usableFromInline package var decorator: (@Sendable (T, Bool) -> Void)?
    /// Maps a parameter to its cache identity, for `scopeOnParameters`.
    @usableFromInline package var parameterIdentity: (@Sendable (P) -> AnyHashable)?
    /// Made by `promised()`: resolving it with nothing registered is an error.
    @usableFromInline package var isPromised = false
    /// Modifiers on this value write through to the manager.
    @usableFromInline package var persists = false

    @inlinable
    package init(container: any ManagedContainer, key: StaticString, factory: FactoryClosure<P, T>) {
        self.container = container
        self.key = FactoryKey(containerType: type(of: container), name: key, parameterType: P.self, valueType: T.self)
        self.factory = factory
    }

    /// The factory's identity: container type, name and types.
    public var id: FactoryKey { key }
}

/// A factory's closure. `Factory` keeps its `() -> T` as written: converting it to
/// `(Void) -> T` would need a reabstraction thunk, an allocation per Factory value.
public enum FactoryClosure<P, T>: Sendable {
    /// A closure without parameter (``Factory``).
    case plain(@Sendable () -> T)
    /// A closure taking the parameter (``ParameterFactory``).
    case parameter(@Sendable (P) -> T)

    @inlinable
    package func callAsFunction(_ parameter: P) -> T {
        switch self {
        case .plain(let factory): return factory()
        case .parameter(let factory): return factory(parameter)
        }
    }
}

/// A registered closure, stored untyped in the manager and downcast by key.
package final class RegistrationBox<P, T>: Sendable {
    package let factory: FactoryClosure<P, T>
    package init(_ factory: FactoryClosure<P, T>) { self.factory = factory }
}

/// A persisted decorator, stored untyped in the manager and downcast by key.
@usableFromInline
package final class DecoratorBox<T>: Sendable {
    @usableFromInline package let decorator: @Sendable (T, Bool) -> Void
    package init(_ decorator: @escaping @Sendable (T, Bool) -> Void) { self.decorator = decorator }
}
