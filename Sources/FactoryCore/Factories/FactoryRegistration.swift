/// Everything one Factory value knows: its container, name, definition and the
/// modifiers its definition applied.
///
/// A factory value is rebuilt each time its container property is read, so what
/// it holds costs nothing to keep: the definition's modifiers live here and are
/// re-applied on every read. What must outlive the value — `register`, context
/// overrides and modifiers applied at run time — is persisted in the container's
/// manager and wins over what is here.
public struct FactoryRegistration<P, T>: Sendable {
    /// The container's manager. The factory value keeps the manager, not the
    /// container: one reference to count per factory value rather than two, on
    /// the path every resolution takes.
    @usableFromInline package let manager: ContainerManager
    /// The container instance, for cycle detection (which tells instances apart).
    @usableFromInline package let containerID: ObjectIdentifier
    /// The container's type, part of the factory's key.
    @usableFromInline package let containerType: any AnyObject.Type
    @usableFromInline package let name: StaticString
    @usableFromInline package var factory: FactoryClosure<P, T>
    @usableFromInline package var isolation: ClosureIsolation
    @usableFromInline package var traits: FactoryTraits
    /// The definition's scope, unretained: scopes live for the whole process
    /// (see ``Scope``), and a retain here would make every resolution write the
    /// shared scope object's reference count.
    @usableFromInline package var scopeReference: Unmanaged<Scope>?

    /// The definition's scope.
    @inlinable
    package var scope: Scope? {
        get { scopeReference?.takeUnretainedValue() }
        set { scopeReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// The definition's time-to-live, in nanoseconds (0: none).
    @usableFromInline package var ttl: UInt64
    /// The definition's decorator and context overrides, which few factories
    /// have: kept out of line so that copying a factory value stays cheap.
    @usableFromInline package var extras: DefinitionExtras<T>?

    /// The definition's decorator.
    @inlinable
    package var decorator: (@Sendable (T, Bool) -> Void)? {
        get { extras?.decorator }
        set { extras = DefinitionExtras(decorator: newValue, contexts: extras?.contexts, shutdown: extras?.shutdown) }
    }

    /// The definition's context overrides, or `nil`.
    @inlinable
    package var contexts: [ContextOverride]? {
        get { extras?.contexts }
        set { extras = DefinitionExtras(decorator: extras?.decorator, contexts: newValue, shutdown: extras?.shutdown) }
    }

    /// The definition's `onShutdown` closure.
    package var shutdown: ShutdownHandlerBase? {
        get { extras?.shutdown }
        set { extras = DefinitionExtras(decorator: extras?.decorator, contexts: extras?.contexts, shutdown: newValue) }
    }

    @inlinable
    package init<C: ManagedContainer>(
        container: C, name: StaticString, factory: FactoryClosure<P, T>, isolation: ClosureIsolation
    ) {
        // Generic rather than existential: for a concrete container whose `manager`
        // is a stored `let`, reading it is a plain load the optimizer can see.
        let manager = container.manager
        // The container is at hand now and may not be later: run its autoRegister() first.
        manager.ensureAutoRegistered(container)
        self.manager = manager
        containerID = ObjectIdentifier(container)
        containerType = type(of: container)
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

    // Always inlined: a call from unspecialized code would need this type's
    // generic metadata, a runtime lookup, just to pass `self`.
    @_alwaysEmitIntoClient @inline(__always)
    package var key: FactoryKey {
        FactoryKey(name: name, valueType: T.self, parameterType: P.self, containerType: containerType)
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
    // Computed rather than stored: a stored static is a lazily initialised global,
    // and the resolution path would pay for its initialisation check on every read.
    @inlinable package static var persists: FactoryTraits { FactoryTraits(rawValue: 1 << 0) }
    /// Made by `promised()`.
    @inlinable package static var promised: FactoryTraits { FactoryTraits(rawValue: 1 << 1) }
    /// The definition set a scope (possibly `nil`).
    @inlinable package static var hasScope: FactoryTraits { FactoryTraits(rawValue: 1 << 2) }
    /// `scopeOnParameters`.
    @inlinable package static var scopeOnParameters: FactoryTraits { FactoryTraits(rawValue: 1 << 3) }
    /// What the lock-free path cannot handle by itself.
    @inlinable package static var general: FactoryTraits { FactoryTraits(rawValue: 1 << 1 | 1 << 3) }
}

/// The rarely used parts of a factory's definition. Immutable: a modifier makes a new one.
@usableFromInline
package final class DefinitionExtras<T>: Sendable {
    @usableFromInline package let decorator: (@Sendable (T, Bool) -> Void)?
    @usableFromInline package let contexts: [ContextOverride]?
    @usableFromInline package let shutdown: ShutdownHandlerBase?

    @usableFromInline
    package init?(decorator: (@Sendable (T, Bool) -> Void)?, contexts: [ContextOverride]?, shutdown: ShutdownHandlerBase?) {
        if decorator == nil && contexts == nil && shutdown == nil { return nil }
        self.decorator = decorator
        self.contexts = contexts
        self.shutdown = shutdown
    }
}
