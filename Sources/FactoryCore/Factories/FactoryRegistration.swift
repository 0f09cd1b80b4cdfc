/// What every factory value knows besides its closure: its container, its name,
/// its types, and the modifiers its definition applied. One type for every kind of
/// factory (``Factory``, ``ParameterFactory``, ``AsyncFactory``,
/// ``AsyncParameterFactory``), and not generic: the engine that resolves a factory
/// reads only this and is compiled once, in the library, while the factory value
/// adds its closure, the one part that must know the value type.
///
/// A factory value is rebuilt each time its container property is read, so what it
/// holds costs nothing to keep: the definition's modifiers live here and are
/// re-applied on every read. What must outlive the value (`register`, context
/// overrides and modifiers applied at run time) is persisted in the container's
/// manager and wins over what is here.
public struct FactoryRegistration: Sendable {
    /// The container's manager. The factory value keeps the manager, not the
    /// container: one reference to count per factory value rather than two.
    @usableFromInline package let manager: ContainerManager
    /// The container's type, part of the factory's key.
    @usableFromInline package let containerType: any AnyObject.Type
    @usableFromInline package let name: StaticString
    // The two one-byte fields after the name, whose last field is a byte: they
    // share its word's padding, and a factory value stays ten words long.
    @usableFromInline package var isolation: ClosureIsolation
    @usableFromInline package var traits: FactoryTraits
    /// The type the factory resolves.
    @usableFromInline package let valueType: Any.Type
    /// The key's parameter type: the closure's parameter type (`Void` for a
    /// ``Factory``), wrapped in ``AsyncKind`` for an asynchronous factory, so that a
    /// synchronous and an asynchronous factory never share a key.
    @usableFromInline package let parameterType: Any.Type
    /// The definition's scope, unretained: scopes live for the whole process
    /// (see ``Scope``), and a retain here would make every resolution write the
    /// shared scope object's reference count.
    @usableFromInline package var scopeReference: Unmanaged<Scope>?
    /// The definition's time-to-live, in nanoseconds (0: none).
    @usableFromInline package var ttl: UInt64
    /// What the definition's other modifiers set (context overrides, decorator,
    /// shutdown), which few factories have: out of line, so that copying a
    /// factory value stays cheap. Setting any makes ``traits`` `.general`.
    @usableFromInline package var options: OptionsBox?

    /// A factory of `container` named `name`, resolving `valueType`; runs the
    /// container's `autoRegister()` first, if it has not run.
    ///
    /// Inlined into the definition: generic, so that reading a concrete
    /// container's `manager` is a plain load, and the rest is stores.
    @_transparent @_alwaysEmitIntoClient @usableFromInline
    package init<C: ManagedContainer>(
        container: C, name: StaticString, valueType: Any.Type, parameterType: Any.Type, isolation: ClosureIsolation
    ) {
        let manager = container.manager
        // The container is at hand now and may not be later: run its autoRegister() first.
        manager.ensureAutoRegistered(container)
        self.manager = manager
        containerType = type(of: container)
        self.name = name
        self.isolation = isolation
        traits = FactoryTraits(rawValue: 0)
        self.valueType = valueType
        self.parameterType = parameterType
        ttl = 0
    }

    /// The container instance, for cycle detection (which tells instances apart):
    /// its manager's identity, as each container has its own (containers that
    /// share one share their registrations and caches, and so their builds).
    package var containerID: ObjectIdentifier {
        ObjectIdentifier(manager)
    }

    /// The factory's identity: container type, name and types.
    public var id: FactoryKey {
        key
    }

    /// The factory's identity: container type, name, parameter and value types.
    public var key: FactoryKey {
        FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
    }

    /// The definition's scope.
    package var scope: Scope? {
        get { scopeReference?.takeUnretainedValue() }
        set { scopeReference = newValue.map { Unmanaged.passUnretained($0) } }
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

    // Computed rather than stored: a stored static is a lazily initialised global,
    // and a definition would pay for its initialisation check each time.

    /// Modifiers write through to the container (after `register`, a context
    /// override applied at run time, or `once()`).
    @inlinable package static var persists: FactoryTraits { FactoryTraits(rawValue: 1 << 0) }
    /// The definition set a scope (possibly `nil`).
    @inlinable package static var hasScope: FactoryTraits { FactoryTraits(rawValue: 1 << 1) }
    /// The definition has an option beyond its scope and time to live: every
    /// resolution takes the general path. The one flag the lock-free hit and the
    /// direct build read, set by whatever writes such an option
    /// (``FactoryRegistration/modify(persist:_:)`` and the two flags below).
    @inlinable package static var general: FactoryTraits { FactoryTraits(rawValue: 1 << 2) }
    /// `scopeOnParameters` in the definition: a flag, not an option in the box,
    /// so that such a definition allocates nothing.
    package static let scopeOnParameters = FactoryTraits(rawValue: 1 << 3)
    /// Made by `promised()`; a flag, for the same reason.
    package static let promised = FactoryTraits(rawValue: 1 << 4)
}
