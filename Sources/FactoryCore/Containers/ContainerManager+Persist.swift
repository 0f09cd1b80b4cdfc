// Registrations, options and resets of one factory, the same for synchronous and async kinds.

/// Run by ``ContainerManager/persist(_:_:)`` under the lock; returns whether cached instances drop.
/// A struct, not a closure parameter, so the optimizer does not clone `persist` per change (~1 KB each).
package struct OptionsChange {
    let apply: (inout FactoryOptions, _ describesType: Bool) -> Bool

    package init(_ apply: @escaping (inout FactoryOptions, _ describesType: Bool) -> Bool) {
        self.apply = apply
    }
}

extension ContainerManager {
    /// Atomic with every other change here; what is replaced is released after unlocking.
    package func persist(_ key: FactoryKey, _ change: OptionsChange) {
        ensureAutoRegistered()
        var garbage = Garbage()
        lock.withLock {
            let slot = table.findOrInsert(key)
            var options = slot.options ?? FactoryOptions()
            let clear = change.apply(&options, isAutoRegisteringHere)
            setOptions(options, of: slot, &garbage)
            if clear { clearCaches(slot, key: key, shared: false, &garbage) }
        }
        garbage.release()
    }

    /// A change of scope drops the instances cached under the old one.
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

    /// Drops cached instances and tells the global storage, except during `autoRegister()`, whose
    /// registrations describe the container type (as in Factory).
    package func register(_ box: RegistrationBoxBase, for key: FactoryKey) {
        ensureAutoRegistered()
        var garbage = Garbage()
        lock.withLock {
            let slot = table.findOrInsert(key)
            let describesType = isAutoRegisteringHere
            box.describesType = describesType
            setRegistration(box, of: slot, &garbage)
            if !describesType {
                slot.removeAllInstances(&garbage)
                globalStorageReference.takeUnretainedValue().registered(key, &garbage)
            }
        }
        garbage.release()
    }

    /// Registrations' instances included; `shared` also resets the global storage's. `lock` held.
    package func clearCaches(_ slot: Slot, key: FactoryKey, shared: Bool, _ garbage: inout Garbage) {
        slot.removeAllInstances(&garbage)
        slot.registration?.cells?.removeAll(&garbage)
        for context in slot.options?.contexts ?? [] { context.box.cells?.removeAll(&garbage) }
        if shared { globalStorageReference.takeUnretainedValue().reset(key, &garbage) }
    }

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

    /// `lock` held.
    package func resetOptions(_ options: FactoryResetOptions, of slot: Slot, _ garbage: inout Garbage) {
        if options.contains(.all) || options.contains(.registration) { setRegistration(nil, of: slot, &garbage) }
        if options.contains(.all) {
            setOptions(nil, of: slot, &garbage)
        } else if options.contains(.context), var current = slot.options {
            current.contexts.removeAll()
            setOptions(current, of: slot, &garbage)
        }
    }
}
