// Registrations, options and resets of one factory, for synchronous and
// asynchronous factories alike: the two kinds differ in how they build and wait,
// never in what `register`, a modifier applied at run time or a reset does.

/// A change to a factory's persisted options, which
/// ``ContainerManager/persist(_:_:)`` runs under the container's lock: it returns
/// whether the factory's cached instances are dropped. A struct around the
/// closure rather than a closure parameter, so that the optimizer does not copy
/// `persist` for each change passed to it (about 1 KB each in every binary).
package struct OptionsChange {
    let apply: (inout FactoryOptions, _ describesType: Bool) -> Bool

    package init(_ apply: @escaping (inout FactoryOptions, _ describesType: Bool) -> Bool) {
        self.apply = apply
    }
}

extension ContainerManager {
    /// Changes the persisted options of `key`, atomically with every other change
    /// to this container. When `change` returns `true` the factory's cached
    /// instances are dropped too. What is replaced is released after unlocking.
    package func persist(_ key: FactoryKey, _ change: OptionsChange) {
        ensureAutoRegistered()
        var garbage = Garbage()
        lock.withLock {
            let slot = slot(key)
            var options = slot.options ?? FactoryOptions()
            let clear = change.apply(&options, isAutoRegisteringHere)
            setOptions(options, of: slot, &garbage)
            if clear { clearCaches(slot, key: key, shared: false, &garbage) }
        }
        garbage.release()
    }

    /// Persists `scope` as the scope of `key`; a change of scope drops the
    /// instances cached under the old one.
    package func persistScope(_ scope: Scope?, of key: FactoryKey) {
        persist(
            key,
            OptionsChange { options, _ in
                let changed = !options.hasScope || options.scope !== scope
                options.hasScope = true
                options.scope = scope
                return changed
            })
    }

    /// Persists `box` as the registration of `key`, drops its cached instances and
    /// tells the global storage (not while `autoRegister()` runs, as in Factory:
    /// such a registration describes the container type).
    package func register(_ box: RegistrationBoxBase, for key: FactoryKey) {
        ensureAutoRegistered()
        var garbage = Garbage()
        lock.withLock {
            let slot = slot(key)
            let describesType = isAutoRegisteringHere
            box.describesType = describesType
            var options = slot.options ?? FactoryOptions()
            options.registration = box
            setOptions(options, of: slot, &garbage)
            if !describesType {
                slot.removeAllInstances(&garbage)
                globalStorageReference.takeUnretainedValue().registered(key, &garbage)
            }
        }
        garbage.release()
    }

    /// Drops the instances this container cached for `key`, including those its
    /// registrations keep; with `shared`, also tells the global storage, whose
    /// instances other containers use too. `lock` held.
    package func clearCaches(_ slot: Slot, key: FactoryKey, shared: Bool, _ garbage: inout Garbage) {
        slot.removeAllInstances(&garbage)
        if let options = slot.persistedOptions {
            options.value.registration?.cells?.removeAll(&garbage)
            for context in options.value.contexts { context.box.cells?.removeAll(&garbage) }
        }
        if shared { globalStorageReference.takeUnretainedValue().reset(key, &garbage) }
    }

    /// Resets what `options` names for the factory `key` in this container.
    package func reset(_ options: FactoryResetOptions, of key: FactoryKey) {
        guard !options.isEmpty else { return }
        var garbage = Garbage()
        lock.withLock {
            guard let slot = findSlot(key)?.takeUnretainedValue() else {
                if options.contains(.scope) { globalStorageReference.takeUnretainedValue().reset(key, &garbage) }
                return
            }
            if options.contains(.scope) { clearCaches(slot, key: key, shared: true, &garbage) }
            resetOptions(options, of: slot, &garbage)
        }
        garbage.release()
    }

    /// Removes from `slot`'s persisted options what `options` names: everything
    /// for `.all`, else the registration and/or the context overrides. `lock` held.
    package func resetOptions(_ options: FactoryResetOptions, of slot: Slot, _ garbage: inout Garbage) {
        if options.contains(.all) {
            setOptions(nil, of: slot, &garbage)
        } else if var current = slot.options {
            if options.contains(.registration) { current.registration = nil }
            if options.contains(.context) { current.contexts.removeAll() }
            setOptions(current, of: slot, &garbage)
        }
    }
}

extension ContainerManager {
    /// The instance of `key` that `scope` caches for the registration or override
    /// `box` (`nil`: the definition), read without a lock; `nil` on a miss, and
    /// where a strategy decides under the lock. The general path's hit, for
    /// synchronous and asynchronous factories alike.
    package func cacheHit(key: FactoryKey, scope: Scope, ttl: UInt64, box: RegistrationBoxBase?) -> FoundInstance? {
        scope.strategy.lockFreeHit(scope, key: key, box: box, ttl: ttl, manager: self)
    }
}

/// Time-to-live intervals as the caches keep them.
package enum TimeToLive {
    /// `seconds` in nanoseconds, at least 1; intervals beyond what the clock counts
    /// (about 584 years) mean "never expires". Stops the program, naming the factory
    /// `key`, for a negative or non-finite interval.
    package static func nanoseconds(_ seconds: Double, of key: FactoryKey) -> UInt64 {
        guard seconds.isFinite, seconds >= 0 else {
            FactoryError.fail(.invalidTimeToLive(key, seconds: seconds))
        }
        if seconds * 1_000_000_000 >= Double(UInt64.max) { return UInt64.max }
        return max(UInt64(seconds * 1_000_000_000), 1)
    }
}
