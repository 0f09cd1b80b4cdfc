extension FactoryRegistration {
    /// Resolves the factory: picks the closure (context override, registration,
    /// definition) and the scope, then builds or fetches the instance inside this
    /// thread's resolution cycle.
    @inline(__always)
    package func resolve(_ parameter: P) -> T {
        let manager = container.manager
        var flags = manager.flags.value
        if flags & ContainerManager.Flags.autoRegistered == 0 {
            manager.ensureAutoRegistered(container)
            flags = manager.flags.value
        }
        var factory = self.factory
        var scope = self.scope
        var persistedDecorator: DecoratorBox<T>?
        var usesDefinition = true
        if flags & ContainerManager.Flags.hasEntries != 0 {
            manager.lock.lock()
            let entry = manager.state.entries[key]
            manager.lock.unlock()
            if let entry {
                if let box = Self.override(in: entry) {
                    factory = box.factory
                    usesDefinition = false
                }
                if let persisted = entry.scope { scope = persisted }
                if let box = entry.decorator { persistedDecorator = unsafeDowncast(box, to: DecoratorBox<T>.self) }
            }
        }
        if usesDefinition && isPromised && flags & ContainerManager.Flags.promiseTriggersError != 0 {
            #if DEBUG
            FactoryError.fail(.unregisteredPromise(key))
            #endif
        }
        if scope == nil && flags & ContainerManager.Flags.hasDefaultScope != 0 {
            scope = manager.defaultScope
        }

        let context = ResolutionContext.current
        context.enter(key, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
        let traceIndex = flags & ContainerManager.Flags.trace != 0 ? context.beginTrace(key, logger: manager.logger) : -1

        let value: T
        let isNew: Bool
        if let scope, let behavior = scope.behavior {
            let request = ScopeRequest(
                scope: scope, key: key, manager: manager,
                parameter: parameterIdentity.map { $0(parameter) })
            (value, isNew) = behavior.resolve(request) { factory(parameter) }
        } else {
            value = factory(parameter)
            isNew = true
        }

        decorator?(value, isNew)
        persistedDecorator?.decorator(value, isNew)
        if flags & ContainerManager.Flags.hasDecorator != 0, let containerDecorator = manager.decorator {
            containerDecorator(value)
        }
        if traceIndex >= 0 { context.endTrace(traceIndex, value: value, isNew: isNew) }
        context.leave()
        return value
    }

    /// The context override that applies now, else the registration, if any.
    private static func override(in entry: ContainerManager.Entry) -> RegistrationBox<P, T>? {
        if !entry.contexts.isEmpty {
            let current = FactoryContext.current
            var best: (rank: Int, box: AnyObject)?
            // Lowest rank wins; among equals, the override added last.
            for context in entry.contexts where context.type.matches(current) {
                if best == nil || context.type.rank <= best!.rank { best = (context.type.rank, context.box) }
            }
            if let best { return unsafeDowncast(best.box, to: RegistrationBox<P, T>.self) }
        }
        return entry.registration.map { unsafeDowncast($0, to: RegistrationBox<P, T>.self) }
    }
}
