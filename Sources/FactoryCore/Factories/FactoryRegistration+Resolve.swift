extension FactoryRegistration {
    /// Resolves the factory: picks the closure (context override, registration,
    /// definition) and the scope, then builds or fetches the instance inside this
    /// thread's resolution cycle.
    ///
    /// Inlined into the caller so that the common case — nothing registered for
    /// the container, the definition's own scope — is specialised for `T` and
    /// reads one atomic word and no lock before running the closure or hitting
    /// the cache.
    @inlinable
    package func resolve(_ parameter: P) -> T {
        let manager = container.manager
        // Read before the closure is chosen; see ScopeStorage.removals. A factory with
        // no scope whose container has no default scope caches nothing and needs none.
        let tokens = scope == nil ? RemovalTokens.unused : RemovalTokens(manager)
        let flags = manager.flags.value
        if flags & ContainerManager.Flags.directMask != ContainerManager.Flags.autoRegistered || isPromised {
            return resolveThroughManager(parameter, manager: manager, tokens: RemovalTokens(manager))
        }
        return build(
            parameter, factory: factory, scope: scope, manager: manager, flags: flags, persistedDecorator: nil, tokens: tokens)
    }

    /// The general path: auto-registration, registrations, context overrides,
    /// persisted modifiers, promises and the default scope.
    @usableFromInline
    func resolveThroughManager(_ parameter: P, manager: ContainerManager, tokens: RemovalTokens) -> T {
        var tokens = tokens
        if manager.flags.value & ContainerManager.Flags.autoRegistered == 0 {
            manager.ensureAutoRegistered(container)
            // What autoRegister() registered is this resolution's starting point, not a race.
            tokens = RemovalTokens(manager)
        }
        let flags = manager.flags.value
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
        if usesDefinition && flags & ContainerManager.Flags.strictMocks != 0 {
            manager.reportUnmocked(key)  // FactoryTesting strict mode
        }
        if usesDefinition && isPromised && flags & ContainerManager.Flags.promiseTriggersError != 0 {
            // FactoryTesting graph validation records the promise and lets it resolve to nil.
            if !ResolutionContext.current.recordForValidation(.unregisteredPromise(key)) {
                #if DEBUG
                FactoryError.fail(.unregisteredPromise(key))
                #endif
            }
        }
        if scope == nil && flags & ContainerManager.Flags.hasDefaultScope != 0 {
            scope = manager.defaultScope
        }
        return build(
            parameter, factory: factory, scope: scope, manager: manager, flags: flags,
            persistedDecorator: persistedDecorator, tokens: tokens)
    }

    /// Builds or fetches the instance with the chosen closure and scope, inside
    /// this thread's resolution cycle, then runs decorators and the trace.
    @inlinable
    func build(
        _ parameter: P,
        factory: FactoryClosure<P, T>,
        scope: Scope?,
        manager: ContainerManager,
        flags: Int,
        persistedDecorator: DecoratorBox<T>?,
        tokens: RemovalTokens
    ) -> T {
        let context = ResolutionContext.current
        context.enter(key, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
        let traceIndex = flags & ContainerManager.Flags.trace != 0 ? beginTrace(context, manager) : -1

        let value: T
        let isNew: Bool
        switch scope?.strategy ?? .unique {
        case .unique:
            value = factory(parameter)
            isNew = true
        case .container(let policy):
            (value, isNew) = resolve(in: manager.storage, token: tokens.storage, parameter, scope!, policy, factory)
        case .singleton:
            (value, isNew) = resolve(in: manager.singletons, token: tokens.singletons, parameter, scope!, .strong, factory)
        case .graph:
            (value, isNew) = context.resolveInGraph(slotKey(parameter)) { factory(parameter) }
        }

        if let decorator { decorator(value, isNew) }
        if let persistedDecorator { persistedDecorator.decorator(value, isNew) }
        if flags & ContainerManager.Flags.hasDecorator != 0 { decorateForContainer(value, manager) }
        if traceIndex >= 0 { context.endTrace(traceIndex, value: value, isNew: isNew) }
        context.leave()
        return value
    }

    /// Keeps `AnyHashable` out of the common case: only `scopeOnParameters`
    /// factories pay for boxing their parameter.
    @inlinable
    func resolve(
        in storage: ScopeStorage,
        token: Int,
        _ parameter: P,
        _ scope: Scope,
        _ policy: ScopeStorage.Policy,
        _ factory: FactoryClosure<P, T>
    ) -> (value: T, isNew: Bool) {
        if let parameterIdentity {
            let slotKey = ScopeStorage.SlotKey(key: key, parameter: parameterIdentity(parameter))
            return storage.resolveSlowly(slotKey, token: token, scopeID: ObjectIdentifier(scope), policy: policy) {
                factory(parameter)
            }
        }
        return storage.resolve(key, token: token, scopeID: ObjectIdentifier(scope), policy: policy) { factory(parameter) }
    }

    @inlinable
    func slotKey(_ parameter: P) -> ScopeStorage.SlotKey {
        ScopeStorage.SlotKey(key: key, parameter: parameterIdentity.map { $0(parameter) })
    }

    @usableFromInline
    func beginTrace(_ context: ResolutionContext, _ manager: ContainerManager) -> Int {
        context.beginTrace(key, logger: manager.logger)
    }

    @usableFromInline
    func decorateForContainer(_ value: T, _ manager: ContainerManager) {
        manager.decorator?(value)
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

/// The removal counters of a container's two storages, read when a resolution starts.
@usableFromInline
struct RemovalTokens {
    @usableFromInline let storage: Int
    @usableFromInline let singletons: Int

    @inlinable
    init(_ manager: ContainerManager) {
        storage = manager.storage.removals.value
        singletons = manager.singletons.removals.value
    }

    @inlinable
    init(storage: Int, singletons: Int) {
        self.storage = storage
        self.singletons = singletons
    }

    /// For resolutions that cache nothing.
    @inlinable
    static var unused: RemovalTokens { RemovalTokens(storage: 0, singletons: 0) }
}
