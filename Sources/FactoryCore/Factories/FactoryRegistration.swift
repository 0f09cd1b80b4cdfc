/// What every factory value knows besides its closure: its container, its name, its types, and the modifiers its
/// definition applied. One type for every kind of factory (``Factory``, ``ParameterFactory``, ``AsyncFactory``,
/// ``AsyncParameterFactory``), and not generic: the engine reads only this and is compiled once, in the library; the
/// factory value adds its closure, the one part that must know the value type.
///
/// A factory value is rebuilt each time its container property is read: the definition's modifiers live here and are
/// re-applied on every read. What must outlive the value (`register`, context overrides and modifiers applied at run
/// time) is persisted in the container's manager and wins over what is here.
public struct FactoryRegistration: Sendable {
    /// The manager, not the container: one reference to count per factory value, not two.
    @usableFromInline package let manager: ContainerManager
    @usableFromInline package let containerType: any AnyObject.Type
    @usableFromInline package let name: StaticString
    // Two one-byte fields share the name's word padding: a factory value stays ten words long.
    @usableFromInline package var isolation: ClosureIsolation
    @usableFromInline package var traits: FactoryTraits
    @usableFromInline package let valueType: Any.Type
    /// The closure's parameter type (`Void` for a ``Factory``), wrapped in ``AsyncKind`` for an
    /// async factory, so a sync and an async factory never share a key.
    @usableFromInline package let parameterType: Any.Type
    /// Unretained: scopes are never freed (``Scope``), and a retain here would make every
    /// resolution write the shared scope's reference count.
    @usableFromInline package var scopeReference: Unmanaged<Scope>?
    @usableFromInline package var ttl: UInt64  // nanoseconds, 0: none
    /// The definition's other modifiers (context overrides, decorator, shutdown), out of line so
    /// copying a factory value stays cheap. Setting any makes ``traits`` `.general`.
    @usableFromInline package var options: OptionsBox?

    /// Runs the container's `autoRegister()` first, if it has not run. Generic and inlined, so
    /// reading a concrete container's `manager` is a plain load and the rest is stores.
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

    /// For cycle detection, which tells container instances apart: containers sharing a manager
    /// share registrations, caches and builds.
    package var containerID: ObjectIdentifier { ObjectIdentifier(manager) }

    /// The factory's identity: container type, name and types.
    public var id: FactoryKey { key }

    /// The factory's identity: container type, name, parameter and value types.
    public var key: FactoryKey {
        FactoryKey(name: name, valueType: valueType, parameterType: parameterType, containerType: containerType)
    }

    package var scope: Scope? {
        get { scopeReference?.takeUnretainedValue() }
        set { scopeReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
}

@usableFromInline
package struct FactoryTraits: OptionSet, Sendable {
    @usableFromInline package let rawValue: UInt8

    @inlinable
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    // Computed, not stored: a stored static is a lazy global whose check a definition would pay.

    /// Modifiers write through to the container (after `register`, a run-time context override, or `once()`).
    @inlinable package static var persists: FactoryTraits { FactoryTraits(rawValue: 1 << 0) }
    /// The definition set a scope (possibly `nil`).
    @inlinable package static var hasScope: FactoryTraits { FactoryTraits(rawValue: 1 << 1) }
    /// An option beyond scope and ttl: every resolution takes the general path. The one flag the
    /// lock-free hit and direct build read, set by whatever writes such an option
    /// (``FactoryRegistration/modify(persist:_:)`` and the two flags below).
    @inlinable package static var general: FactoryTraits { FactoryTraits(rawValue: 1 << 2) }
    /// Flags, not options in the box, so such a definition allocates nothing.
    package static let scopeOnParameters = FactoryTraits(rawValue: 1 << 3)
    package static let promised = FactoryTraits(rawValue: 1 << 4)
}
