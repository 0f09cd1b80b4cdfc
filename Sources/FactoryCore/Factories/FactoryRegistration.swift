/// Everything one Factory value knows: its container, name, definition and the
/// modifiers its definition applied.
///
/// A factory value is rebuilt each time its container property is read, so what
/// it holds costs nothing to keep: the definition's modifiers live here and are
/// re-applied on every read. What must outlive the value — `register`, context
/// overrides and modifiers applied at run time — is persisted in the container's
/// manager and wins over what is here.
public struct FactoryRegistration<P, T>: Sendable {
    @usableFromInline package let container: any ManagedContainer
    @usableFromInline package let name: StaticString
    @usableFromInline package var factory: FactoryClosure<P, T>
    @usableFromInline package var isolation: ClosureIsolation
    @usableFromInline package var traits: FactoryTraits
    /// The definition's scope. Unretained: scopes live for the whole process
    /// (see ``Scope``), and a retain here would make every resolution write the
    /// shared scope object's reference count.
    @usableFromInline package unowned(unsafe) var scope: Scope?
    @usableFromInline package var decorator: (@Sendable (T, Bool) -> Void)?
    /// The definition's time-to-live, in nanoseconds (0: none).
    @usableFromInline package var ttl: UInt64
    /// The definition's context overrides, or `nil`.
    @usableFromInline package var contexts: [ContextOverride]?

    @inlinable
    package init(container: any ManagedContainer, name: StaticString, factory: FactoryClosure<P, T>, isolation: ClosureIsolation) {
        self.container = container
        self.name = name
        self.factory = factory
        self.isolation = isolation
        traits = []
        ttl = 0
    }

    /// The factory's identity: container type, name and types.
    @inlinable
    public var id: FactoryKey {
        key
    }

    @inlinable
    package var key: FactoryKey {
        FactoryKey(name: name, valueType: T.self, parameterType: P.self, containerType: type(of: container))
    }
}

/// Flags of a factory value.
@usableFromInline
package struct FactoryTraits: OptionSet, Sendable {
    @usableFromInline package let rawValue: UInt8

    @inlinable
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Modifiers write through to the container (after `register`, a context
    /// override applied at run time, or `once()`).
    @usableFromInline package static let persists = FactoryTraits(rawValue: 1 << 0)
    /// Made by `promised()`.
    @usableFromInline package static let promised = FactoryTraits(rawValue: 1 << 1)
    /// The definition set a scope (possibly `nil`).
    @usableFromInline package static let hasScope = FactoryTraits(rawValue: 1 << 2)
    /// `scopeOnParameters`.
    @usableFromInline package static let scopeOnParameters = FactoryTraits(rawValue: 1 << 3)
    /// What the lock-free path cannot handle by itself.
    @usableFromInline package static let general: FactoryTraits = [.promised, .scopeOnParameters]
}
