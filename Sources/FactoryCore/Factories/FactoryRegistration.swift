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
    // Spelled `Optional<...>`: a `T?` stored property gets an implicit `nil` initial value, which every factory value
    // (initialized in the caller's module) would call the library for in an unoptimized build.
    @usableFromInline package var scopeReference: Optional<Unmanaged<Scope>>
    @usableFromInline package var ttl: UInt64  // nanoseconds, 0: none
    /// The definition's other modifiers (context overrides, decorator, shutdown), out of line so
    /// copying a factory value stays cheap. Setting any makes ``traits`` `.general`.
    @usableFromInline package var options: Optional<OptionsBox>

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
        scopeReference = nil
        ttl = 0
        options = nil
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

    @_transparent @usableFromInline
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    // Transparent constants, not stored: a stored static is a lazy global whose check a definition would pay.

    /// Modifiers write through to the container (after `register`, a run-time context override, or `once()`).
    @_transparent @usableFromInline package static var persists: FactoryTraits { FactoryTraits(rawValue: 1 << 0) }
    /// The definition set a scope (possibly `nil`).
    @_transparent @usableFromInline package static var hasScope: FactoryTraits { FactoryTraits(rawValue: 1 << 1) }
    /// An option beyond scope and ttl: every resolution takes the general path. The one flag the
    /// lock-free hit and direct build read, set by whatever writes such an option
    /// (``FactoryRegistration/modify(persist:_:)`` and the two flags below).
    @_transparent @usableFromInline package static var general: FactoryTraits { FactoryTraits(rawValue: 1 << 2) }
    /// Flags, not options in the box, so such a definition allocates nothing.
    @_transparent @usableFromInline package static var scopeOnParameters: FactoryTraits { FactoryTraits(rawValue: 1 << 3) }
    @_transparent @usableFromInline package static var promised: FactoryTraits { FactoryTraits(rawValue: 1 << 4) }
}

// Every modifier, written once for every kind: it changes the value's definition, or persists in
// the container (at run time, or after `register`, a run-time context override or `once()`).

extension FactoryRegistration {
    /// `caller` is the modifier's `#function`: outside the definition (named like the factory), it persists.
    @usableFromInline
    package func persists(calledFrom caller: StaticString) -> Bool {
        traits.contains(.persists) || !FactoryName.equal(caller, name)
    }

    /// How a modifier writes its option: persisted via ``ContainerManager/persist(_:_:)`` (where `change` returns
    /// whether cached instances drop), or in the definition, which then sends every resolution the general way.
    /// Usable from a modifier's inlined body, so a modifier written in another module can be `@_alwaysEmitIntoClient`.
    @usableFromInline
    package mutating func modify(persist: Bool, _ change: @escaping (inout FactoryOptions, _ describesType: Bool) -> Bool) {
        if persist {
            manager.persist(key, OptionsChange(change))
            return
        }
        var own = options?.value ?? FactoryOptions()
        _ = change(&own, true)
        options = own.isEmpty ? nil : OptionsBox(own)
        traits.insert(.general)
    }

    /// Later modifiers on this value persist too. The specialized caller makes the box: made here,
    /// unspecialized, it would cost a generic metadata lookup per `register`.
    @usableFromInline
    package mutating func register(_ box: RegistrationBoxBase) {
        manager.register(box, for: key)
        traits.insert(.persists)
    }

    /// Replaces an override for the same context; persisted unless the definition applies it
    /// (then later modifiers persist too). Cached instances are kept, as in Factory.
    @usableFromInline
    package mutating func addContexts(_ types: [FactoryContextType], _ box: RegistrationBoxBase, caller: StaticString) {
        let persist = persists(calledFrom: caller)
        modify(persist: persist) { options, describesType in
            // In the definition, part of it: it describes the container type.
            box.describesType = describesType
            options.contexts = Self.adding(types, box, to: options.contexts)
            return false
        }
        if persist { traits.insert(.persists) }
    }

    private static func adding(
        _ types: [FactoryContextType], _ box: RegistrationBoxBase, to overrides: [ContextOverride]
    ) -> [ContextOverride] {
        var overrides = overrides
        for type in types {
            overrides.removeAll { $0.type == type }
            overrides.append(ContextOverride(type: type, box: box))
        }
        return overrides
    }

    /// Persisting drops instances cached under another scope.
    @usableFromInline
    package mutating func setScope(_ scope: Scope?, caller: StaticString) {
        if persists(calledFrom: caller) {
            manager.persistScope(scope, of: key)
        } else {
            self.scope = scope
            traits.insert(.hasScope)
        }
    }

    /// A modifier property's scope. Inlined into the definition, whose traits are constants there,
    /// it compiles to the stores alone; a call would need the value in memory and a copy out.
    @_alwaysEmitIntoClient @inline(__always)
    package mutating func setScopeProperty(_ scope: Unmanaged<Scope>) {
        if traits.contains(.persists) {
            persistScope(scope.takeUnretainedValue())
        } else {
            scopeReference = scope
            traits.insert(.hasScope)
        }
    }

    /// A call, so a definition does not compile the lazy global's accessor; unretained (never freed).
    @usableFromInline
    package static func uniqueScope() -> Unmanaged<Scope> { Unmanaged.passUnretained(Scope.unique) }

    @usableFromInline
    package func persistScope(_ scope: Scope) { manager.persistScope(scope, of: key) }

    @usableFromInline
    package mutating func setDecorator(_ decorator: DecoratorBoxBase, caller: StaticString) {
        modify(persist: persists(calledFrom: caller)) { options, _ in
            options.decorator = decorator
            return false
        }
    }

    package mutating func setShutdown(_ handler: ShutdownHandler, caller: StaticString) {
        modify(persist: persists(calledFrom: caller)) { options, _ in
            options.shutdown = handler
            return false
        }
    }

    /// `once()`: persists the definition's modifiers the first time (until a reset), then drops them
    /// from every value so they never overwrite what was persisted; later modifiers persist.
    @usableFromInline
    package mutating func applyOnce() {
        let alreadyApplied = manager.findSlot(key)?.takeUnretainedValue().loadPersisted().options?.value.onceApplied ?? false
        if !alreadyApplied {
            let definition = self
            modify(persist: true) { options, _ in
                guard !options.onceApplied else { return false }
                options.onceApplied = true
                options.adopt(definition)
                for context in definition.options?.value.contexts ?? []
                where !options.contexts.contains(where: { $0.type == context.type }) {
                    options.contexts.append(context)
                }
                return false
            }
        }
        scope = nil
        options = nil
        ttl = 0
        traits.subtract([.hasScope, .general, .scopeOnParameters, .promised])
        traits.insert(.persists)
    }

    @usableFromInline
    package func reset(_ options: FactoryResetOptions) { manager.reset(options, of: key) }
}
