extension FactoryRegistration {
    /// Persists `factory` as this factory's registration and drops its cached instances.
    package mutating func register(_ factory: FactoryClosure<P, T>) {
        let manager = container.manager
        manager.ensureAutoRegistered(container)
        let box = RegistrationBox(factory)
        manager.mutate { $0.entries[key, default: .init()].registration = box }
        clearCachedInstances()
        persists = true
    }

    /// Persists a context override. Re-adding an override for a context that already
    /// has one replaces its closure and keeps cached instances, so a definition that
    /// declares `onTest { }` can be evaluated on every resolution without losing its cache.
    package mutating func addContext(_ types: [FactoryContextType], _ factory: FactoryClosure<P, T>) {
        let manager = container.manager
        manager.ensureAutoRegistered(container)
        let box = RegistrationBox(factory)
        let added = manager.mutate { state -> Bool in
            var entry = state.entries[key] ?? .init()
            var added = false
            for type in types {
                if let index = entry.contexts.firstIndex(where: { $0.type == type }) {
                    entry.contexts[index].box = box
                } else {
                    entry.contexts.append((type, box))
                    added = true
                }
            }
            state.entries[key] = entry
            return added
        }
        if added { clearCachedInstances() }
        persists = true
    }

    /// Sets the scope; persisted (and cached instances dropped) when this value persists.
    @inlinable
    package mutating func setScope(_ scope: Scope?) {
        self.scope = scope
        if persists { persistScope(scope) }
    }

    @usableFromInline
    func persistScope(_ scope: Scope?) {
        container.manager.mutate { $0.entries[key, default: .init()].scope = scope }
        clearCachedInstances()
    }

    /// Sets the decorator; persisted when this value persists.
    package mutating func setDecorator(_ decorator: @escaping @Sendable (T, Bool) -> Void) {
        self.decorator = decorator
        guard persists else { return }
        let box = DecoratorBox(decorator)
        container.manager.mutate { $0.entries[key, default: .init()].decorator = box }
    }

    /// Resets what `options` names for this factory only.
    package func reset(_ options: FactoryResetOptions) {
        let manager = container.manager
        manager.mutate { state in
            guard var entry = state.entries[key] else { return }
            if options.contains(.all) {
                entry = .init()
            } else {
                if options.contains(.registration) { entry.registration = nil }
                if options.contains(.context) { entry.contexts.removeAll() }
            }
            state.entries[key] = entry.isEmpty ? nil : entry
        }
        if options.contains(.scope) { clearCachedInstances() }
    }

    /// Drops this factory's instances from the container's caches and from singletons.
    package func clearCachedInstances() {
        container.manager.storage.remove(key)
        container.manager.singletons.remove(key)
    }
}
