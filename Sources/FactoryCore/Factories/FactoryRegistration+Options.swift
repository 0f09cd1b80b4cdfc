// Every modifier, written once on the registration that every kind of factory
// stores: each either changes the factory value (in its definition) or persists
// in the container (at run time, or after `register`, a run-time context override
// or `once()`).

extension FactoryRegistration {
    /// Whether a modifier called from `caller` (its `#function`) persists: it does
    /// after `register`, a run-time context override or `once()`, and whenever it
    /// is called outside the factory's own definition (the definition is the
    /// property or function named like the factory).
    package func persists(calledFrom caller: StaticString) -> Bool {
        traits.contains(.persists) || !FactoryName.equal(caller, name)
    }

    /// Applies a modifier's `change` to this factory's options: to this value's
    /// definition when `persist` is `false`, else persisted in the container (see
    /// ``ContainerManager/persist(_:_:)``: `change` returns whether the factory's
    /// cached instances are dropped there, and is told whether the change
    /// describes the container type). A definition's options make every
    /// resolution of this value take the general path.
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

    /// Persists `box` as this factory's registration and drops its cached
    /// instances (not while `autoRegister()` runs, as in Factory); later modifiers
    /// on this value persist too.
    ///
    /// The box is made by the (specialized) caller: made here, unspecialized, it
    /// would cost a generic type-metadata lookup on every `register`.
    @usableFromInline
    package mutating func register(_ box: RegistrationBoxBase) {
        manager.register(box, for: key)
        traits.insert(.persists)
    }

    /// Adds the context override `box` for `types`, from a modifier called in
    /// `caller`: to this value when it is the definition applying it, else
    /// persisted (replacing an override for the same context, and making later
    /// modifiers on this value persist). Cached instances are kept, as in Factory.
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

    /// `overrides` with `box` as the override of each of `types`, replacing the one before.
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

    /// Sets the scope from a modifier method called in `caller`.
    @usableFromInline
    package mutating func setScope(_ scope: Scope?, caller: StaticString) {
        setScope(scope, persist: persists(calledFrom: caller))
    }

    /// Sets the scope the way a modifier property does: in the definition, unless
    /// this value persists.
    // Inlined into the definition, whose traits are constants there: it compiles
    // to the stores alone. Called, it would need the factory value in memory, and
    // the definition would then copy that value out to return it.
    @_alwaysEmitIntoClient @inline(__always)
    package mutating func setScopeProperty(_ scope: Unmanaged<Scope>) {
        if traits.contains(.persists) {
            persistScope(scope.takeUnretainedValue())
        } else {
            scopeReference = scope
            traits.insert(.hasScope)
        }
    }

    /// ``Scope/unique``, unretained (scopes are never freed), for `.unique`: a call,
    /// so that a definition does not compile the lazy global's accessor.
    @usableFromInline
    package static func uniqueScope() -> Unmanaged<Scope> {
        Unmanaged.passUnretained(Scope.unique)
    }

    /// Persists `scope` as the factory's scope in its container.
    @usableFromInline
    package func persistScope(_ scope: Scope) {
        manager.persistScope(scope, of: key)
    }

    /// Sets the scope, persisted when `persist` (dropping instances cached under another scope).
    package mutating func setScope(_ scope: Scope?, persist: Bool) {
        if persist {
            manager.persistScope(scope, of: key)
        } else {
            self.scope = scope
            traits.insert(.hasScope)
        }
    }

    /// Sets the decorator from a modifier called in `caller`.
    @usableFromInline
    package mutating func setDecorator(_ decorator: DecoratorBoxBase, caller: StaticString) {
        modify(persist: persists(calledFrom: caller)) { options, _ in
            options.decorator = decorator
            return false
        }
    }

    /// Sets how a cached instance is shut down, from a modifier called in `caller`.
    package mutating func setShutdown(_ handler: ShutdownHandler, caller: StaticString) {
        modify(persist: persists(calledFrom: caller)) { options, _ in
            options.shutdown = handler
            return false
        }
    }

    /// Sets the time-to-live from a modifier called in `caller`; the definition
    /// keeps its own inline, for the lock-free hit. Stops the program for a
    /// negative or non-finite interval; intervals beyond what the clock counts
    /// (about 584 years) mean "never expires".
    package mutating func setTimeToLive(_ seconds: Double, caller: StaticString) {
        let nanoseconds = TimeToLive.nanoseconds(seconds, of: key)
        guard persists(calledFrom: caller) else {
            ttl = nanoseconds
            return
        }
        modify(persist: true) { options, _ in
            options.ttl = nanoseconds
            return false
        }
    }

    /// Caches per parameter: in the definition, unless this value persists.
    package mutating func setScopeOnParameters() {
        guard traits.contains(.persists) else {
            traits.insert([.scopeOnParameters, .general])
            return
        }
        modify(persist: true) { options, _ in
            let changed = options.scopeOnParameters != true
            options.scopeOnParameters = true
            return changed
        }
    }

    /// `once()`: the first time, persists the modifiers this value's definition
    /// applied (they then survive until a reset), and from then on drops the
    /// definition's modifiers from every value, so nothing the definition says
    /// overwrites what was persisted or changed at run time. Modifiers chained
    /// after `once()` persist.
    @usableFromInline
    package mutating func applyOnce() {
        let alreadyApplied = (manager.findSlot(key)?._withUnsafeGuaranteedRef { $0.loadOptions() })?.value.onceApplied ?? false
        if !alreadyApplied {
            var definition = options?.value ?? FactoryOptions()
            if traits.contains(.scopeOnParameters) { definition.scopeOnParameters = true }
            definition.promised = traits.contains(.promised)
            let (scope, hasScope, ttl) = (scope, traits.contains(.hasScope), ttl)
            modify(persist: true) { options, _ in
                guard !options.onceApplied else { return false }
                options.onceApplied = true
                options.adopt(definition, scope: scope, hasScope: hasScope, ttl: ttl)
                return false
            }
        }
        scope = nil
        options = nil
        ttl = 0
        traits.subtract([.hasScope, .general, .scopeOnParameters, .promised])
        traits.insert(.persists)
    }

    /// Resets what `options` names for this factory in its container.
    @usableFromInline
    package func reset(_ options: FactoryResetOptions) {
        manager.reset(options, of: key)
    }
}

extension ContainerManager {
    /// The logger, boxed for trace lines.
    package var loggerBox: LoggerBox {
        lock.withLock { state.logger }
    }

    /// FactoryTesting strict mode: tells the observer that `key` resolved with its
    /// definition. The observer runs outside the lock, on the resolving thread.
    package func reportUnmocked(_ key: FactoryKey) {
        let observer = lock.withLock { state.unmockedObserver }
        observer?(key)
    }
}
