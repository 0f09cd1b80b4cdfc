extension FactoryRegistration {
    /// Whether a modifier called from `caller` (its `#function`) persists: it does
    /// after `register`, a run-time context override or `once()`, and whenever it
    /// is called outside the factory's own definition (the definition is the
    /// property or function named like the factory).
    @inlinable
    package func persists(calledFrom caller: StaticString) -> Bool {
        traits.contains(.persists) || !FactoryName.equal(caller, name)
    }

    /// Changes this factory's persisted options in its container; see
    /// ``ContainerManager/persist(_:_:)``.
    package func persist(_ change: (inout FactoryOptions, _ describesType: Bool) -> Bool) {
        manager.persist(key, change)
    }

    /// Persists `box` as this factory's registration and drops its cached
    /// instances (not while `autoRegister()` runs, as in Factory).
    ///
    /// The box is made by the (specialized) caller: made here, unspecialized, it
    /// would cost a generic type-metadata lookup on every `register`.
    @usableFromInline
    package mutating func register(_ box: RegistrationBoxBase) {
        manager.register(box, for: key)
        traits.insert(.persists)
    }

    /// Adds context overrides for `types`: to this value when it is the
    /// definition applying them, else persisted (replacing an override for the
    /// same context). Cached instances are kept, as in Factory.
    package mutating func addContexts(
        _ types: [FactoryContextType], _ factory: FactoryClosure<P, T>, isolation: ClosureIsolation, persist: Bool
    ) {
        if persist {
            self.persist { options, describesType in
                let box = RegistrationBox(factory, isolation: isolation, describesType: describesType)
                for type in types {
                    options.contexts.removeAll { $0.type == type }
                    options.contexts.append(ContextOverride(type: type, box: box))
                }
                return false
            }
            traits.insert(.persists)
        } else {
            let box = RegistrationBox(factory, isolation: isolation, describesType: true)
            var overrides = contexts ?? []
            for type in types {
                overrides.removeAll { $0.type == type }
                overrides.append(ContextOverride(type: type, box: box))
            }
            contexts = overrides
        }
    }

    /// Sets the scope, persisted when `persist` (dropping instances cached under another scope).
    @inlinable
    package mutating func setScope(_ scope: Scope?, persist: Bool) {
        if persist {
            persistScope(scope)
        } else {
            self.scope = scope
            traits.insert(.hasScope)
        }
    }

    @usableFromInline
    func persistScope(_ scope: Scope?) {
        manager.persistScope(scope, of: key)
    }

    /// Sets the decorator, persisted when `persist`.
    @usableFromInline
    package mutating func setDecorator(_ decorator: @escaping @Sendable (T, Bool) -> Void, persist: Bool) {
        if persist {
            self.persist { options, _ in
                options.decorator = DecoratorBox(decorator)
                return false
            }
        } else {
            self.decorator = decorator
        }
    }

    /// Sets how a cached instance is shut down, persisted when `persist`.
    package mutating func setShutdown(_ handler: ShutdownHandlerBase, persist: Bool) {
        if persist {
            self.persist { options, _ in
                options.shutdown = handler
                return false
            }
        } else {
            shutdown = handler
        }
    }

    /// Sets the time-to-live from a modifier called in `caller`.
    @inlinable
    package mutating func setTimeToLive(_ seconds: Double, caller: StaticString) {
        setTimeToLive(seconds, persist: persists(calledFrom: caller))
    }

    /// Sets the time-to-live, persisted when `persist`. Stops the program for a
    /// negative or non-finite interval; intervals beyond what the clock counts
    /// (about 584 years) mean "never expires".
    @usableFromInline
    package mutating func setTimeToLive(_ seconds: Double, persist: Bool) {
        let nanoseconds = TimeToLive.nanoseconds(seconds, of: key)
        if persist {
            self.persist { options, _ in
                options.ttl = nanoseconds
                return false
            }
        } else {
            ttl = nanoseconds
        }
    }

    /// Caches per parameter, persisted when `persist`.
    @usableFromInline
    package mutating func setScopeOnParameters(persist: Bool) {
        if persist {
            self.persist { options, _ in
                options.scopeOnParameters = true
                return false
            }
        } else {
            traits.insert(.scopeOnParameters)
        }
    }

    /// `once()`: the first time, persists the modifiers this value's definition
    /// applied (they then survive until a reset), and from then on drops the
    /// definition's modifiers from every value, so nothing the definition says
    /// overwrites what was persisted or changed at run time. Modifiers chained
    /// after `once()` persist.
    @usableFromInline
    package mutating func applyOnce() {
        let manager = self.manager
        let alreadyApplied = (manager.findSlot(key)?._withUnsafeGuaranteedRef { $0.loadOptions() })?.value.onceApplied ?? false
        if !alreadyApplied {
            let definition = self
            persist { options, _ in
                guard !options.onceApplied else { return false }
                options.onceApplied = true
                if !options.hasScope && definition.traits.contains(.hasScope) {
                    options.hasScope = true
                    options.scope = definition.scope
                }
                if options.decorator == nil, let decorator = definition.decorator {
                    options.decorator = DecoratorBox(decorator)
                }
                if options.shutdown == nil { options.shutdown = definition.shutdown }
                if options.ttl == nil && definition.ttl != 0 { options.ttl = definition.ttl }
                if options.scopeOnParameters == nil && definition.traits.contains(.scopeOnParameters) {
                    options.scopeOnParameters = true
                }
                for context in definition.contexts ?? [] where !options.contexts.contains(where: { $0.type == context.type }) {
                    options.contexts.append(context)
                }
                return false
            }
        }
        scope = nil
        decorator = nil
        shutdown = nil
        ttl = 0
        contexts = nil
        traits.subtract([.hasScope, .scopeOnParameters])
        traits.insert(.persists)
    }

    /// Resets what `options` names for this factory in its container.
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

extension FactoryRegistration {
    /// Sets the scope the way a modifier property does: in the definition, unless this value persists.
    @inlinable
    package mutating func setScopeProperty(_ scope: Scope) {
        setScope(scope, persist: traits.contains(.persists))
    }
}
