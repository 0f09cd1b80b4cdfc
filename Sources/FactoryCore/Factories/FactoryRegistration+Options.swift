// Every modifier, written once for every kind: it changes the value's definition, or persists in
// the container (at run time, or after `register`, a run-time context override or `once()`).

extension FactoryRegistration {
    /// `caller` is the modifier's `#function`: outside the definition (named like the factory), it persists.
    package func persists(calledFrom caller: StaticString) -> Bool {
        traits.contains(.persists) || !FactoryName.equal(caller, name)
    }

    /// Persisted via ``ContainerManager/persist(_:_:)`` (where `change` returns whether cached
    /// instances drop), or in the definition, which then sends every resolution the general way.
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

    /// The definition keeps its own inline, for the lock-free hit; see ``TimeToLive``.
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

    /// `once()`: persists the definition's modifiers the first time (until a reset), then drops them
    /// from every value so they never overwrite what was persisted; later modifiers persist.
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

    @usableFromInline
    package func reset(_ options: FactoryResetOptions) { manager.reset(options, of: key) }
}

extension ContainerManager {
    package var loggerBox: LoggerBox { lock.withLock { state.logger } }

    /// Strict mode; the observer runs outside the lock, on the resolving thread.
    package func reportUnmocked(_ key: FactoryKey) {
        let observer = lock.withLock { state.unmockedObserver }
        observer?(key)
    }
}
