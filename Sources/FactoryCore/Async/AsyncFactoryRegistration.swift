#if SwiftConcurrency
/// The definition and modifiers of an ``AsyncFactory`` or ``AsyncParameterFactory``
/// value, and their resolution.
///
/// Registrations, context overrides and modifiers applied at run time are kept
/// in the container with those of the synchronous factories, so `reset`,
/// `push`/`pop` and the test traits treat both alike.
public struct AsyncFactoryRegistration<P: Sendable, T: Sendable>: Sendable {
    @usableFromInline package let manager: ContainerManager
    @usableFromInline package let containerID: ObjectIdentifier
    @usableFromInline package let containerType: any AnyObject.Type
    @usableFromInline package let name: StaticString
    @usableFromInline package var factory: AsyncClosure<P, T>
    /// The definition's scope, unretained: scopes live for the whole process (see
    /// ``Scope``), and a retain would make every factory value write the shared
    /// scope object's reference count, once more for each copy into an async frame.
    @usableFromInline package var scopeReference: Unmanaged<Scope>?
    /// The definition's scope.
    @inlinable
    package var scope: Scope? {
        get { scopeReference?.takeUnretainedValue() }
        set { scopeReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    @usableFromInline package var hasScope = false
    /// Time to live in nanoseconds; 0 for none.
    @usableFromInline package var ttl: UInt64 = 0
    @usableFromInline package var scopeOnParameters = false
    @usableFromInline package var decorator: (@Sendable (T) -> Void)?
    /// The definition's `onShutdown` closure.
    @usableFromInline package var shutdown: ShutdownHandlerBase?
    /// Context overrides declared in the definition.
    @usableFromInline package var contexts: [ContextOverride]? = nil
    /// Set by `register` and run-time context overrides: later modifiers on this value persist.
    @usableFromInline package var persistsModifiers = false

    @inlinable
    package init<C: ManagedContainer>(
        container: C, name: StaticString, factory: AsyncClosure<P, T>
    ) {
        manager = container.manager
        containerID = ObjectIdentifier(container)
        containerType = C.self
        self.name = name
        self.factory = factory
        manager.ensureAutoRegistered(container)
    }

    /// The factory's key: container type, name, parameter and value types, and
    /// that it is asynchronous.
    ///
    /// A synchronous factory with the same container type, name and types (an
    /// overload on the return type, or one explicit `key:`) is another factory:
    /// the key's parameter type is ``AsyncKind``, so the two never share a slot,
    /// a registration or a cache, and each kind's boxes and cells are only ever
    /// read by the kind that made them (their readers downcast without a check).
    @inlinable
    public var key: FactoryKey {
        FactoryKey(name: name, valueType: T.self, parameterType: AsyncKind<P>.self, containerType: containerType)
    }

    /// Whether a modifier called from `caller` persists (see the synchronous factories).
    @inlinable
    package func persists(calledFrom caller: StaticString) -> Bool {
        persistsModifiers || !FactoryName.equal(caller, name)
    }

    // MARK: Changing

    /// Changes this factory's persisted options; see ``ContainerManager/persist(_:_:)``.
    package func persist(_ change: (inout FactoryOptions, _ describesType: Bool) -> Bool) {
        manager.persist(key, change)
    }

    /// Persists `factory` as the registration and drops cached instances, as
    /// `register` on a synchronous factory does.
    package mutating func register(_ factory: AsyncClosure<P, T>) {
        manager.register(AsyncRegistrationBox(factory, describesType: false), for: key)
        persistsModifiers = true
    }

    /// Adds a context override for `types`: to this value in the definition, else persisted.
    package mutating func addContexts(
        _ types: [FactoryContextType], caller: StaticString, _ factory: AsyncClosure<P, T>
    ) {
        guard persists(calledFrom: caller) else {
            let box = AsyncRegistrationBox(factory, describesType: true)
            for type in types {
                var overrides = contexts ?? []
                overrides.removeAll { $0.type == type }
                overrides.append(ContextOverride(type: type, box: box))
                contexts = overrides
            }
            return
        }
        persist { options, describesType in
            let box = AsyncRegistrationBox(factory, describesType: describesType)
            for type in types {
                options.contexts.removeAll { $0.type == type }
                options.contexts.append(ContextOverride(type: type, box: box))
            }
            return false
        }
        persistsModifiers = true
    }

    /// Sets the scope from a scope property (`.cached`, ...): on this value, or in
    /// the container after `register` made this value's modifiers persist.
    @inlinable
    package mutating func setScopeProperty(_ scope: Scope) {
        if persistsModifiers {
            persistScope(scope)
        } else {
            self.scope = scope
            hasScope = true
        }
    }

    /// Sets the scope: on this value in the definition, in the container at run time.
    @inlinable
    package mutating func setScope(_ scope: Scope?, caller: StaticString) {
        if persists(calledFrom: caller) {
            persistScope(scope)
        } else {
            self.scope = scope
            hasScope = true
        }
    }

    @usableFromInline
    func persistScope(_ scope: Scope?) {
        manager.persistScope(scope, of: key)
    }

    /// Sets the time to live (validated by the caller, in nanoseconds).
    package mutating func setTimeToLive(_ seconds: Double, caller: StaticString) {
        let nanoseconds = TimeToLive.nanoseconds(seconds, of: key)
        if persists(calledFrom: caller) {
            persist { options, _ in
                options.ttl = nanoseconds
                return false
            }
        } else {
            ttl = nanoseconds
        }
    }

    /// Caches one instance per parameter.
    package mutating func setScopeOnParameters(caller: StaticString) {
        if persists(calledFrom: caller) {
            persist { options, _ in
                let changed = options.scopeOnParameters != true
                options.scopeOnParameters = true
                return changed
            }
        } else {
            scopeOnParameters = true
        }
    }

    /// Sets the decorator.
    package mutating func setDecorator(_ decorator: @escaping @Sendable (T) -> Void, caller: StaticString) {
        if persists(calledFrom: caller) {
            persist { options, _ in
                options.decorator = DecoratorBox<T> { value, _ in decorator(value) }
                return false
            }
        } else {
            self.decorator = decorator
        }
    }

    /// Sets how a cached instance is shut down.
    package mutating func setShutdown(_ handler: ShutdownHandlerBase, caller: StaticString) {
        if persists(calledFrom: caller) {
            persist { options, _ in
                options.shutdown = handler
                return false
            }
        } else {
            shutdown = handler
        }
    }

    /// Removes what `options` names from this factory in its container.
    package func reset(_ options: FactoryResetOptions) {
        manager.reset(options, of: key)
    }

    // MARK: Resolving

    /// What one resolution uses after registrations, overrides and modifiers are
    /// applied: the synchronous factories' ``GeneralPath/merge(_:_:defaultScope:)``,
    /// with the closure and decorators cast back to this factory's types.
    struct Effective {
        var options: ResolvedOptions
        var factory: AsyncClosure<P, T>
        /// A decorator persisted at run time, which replaces the definition's.
        var persistedDecorator: DecoratorBox<T>?

        var box: RegistrationBoxBase? { options.box }
        var scope: Scope? { options.scope }
        var ttl: UInt64 { options.ttl }
        var scopeOnParameters: Bool { options.scopeOnParameters }
        var shutdown: ShutdownHandlerBase? { options.shutdown }
    }

    func effective(_ persisted: PersistedOptions?, defaultScope: Scope?) -> Effective {
        let definition = DefinitionOptions(
            isolation: .none, scope: hasScope ? scope : nil, ttl: ttl, scopeOnParameters: scopeOnParameters,
            shutdown: shutdown, contexts: contexts)
        let merged = GeneralPath.merge(definition, persisted, defaultScope: defaultScope)
        // Every box of this key was made by this kind of factory for `P` and `T`;
        // checked all the same, as any cast user code can reach.
        let box = merged.closureBox.map { $0 as? AsyncRegistrationBox<P, T> }
        return Effective(
            options: merged, factory: box??.factory ?? factory,
            persistedDecorator: merged.decoratorBox as? DecoratorBox<T>)
    }

    /// Resolves: from the cache, by joining a build under way, or by building.
    @inlinable
    nonisolated(nonsending) package func resolve(_ parameter: P) async throws -> T {
        if let hit = cachedHit() { return hit }
        return try await resolveSlowly(parameter)
    }

    @usableFromInline
    nonisolated(nonsending) func resolveSlowly(_ parameter: P) async throws -> T {
        let manager = self.manager
        manager.ensureAutoRegistered()
        let key = self.key
        let flags = manager.flags.value
        if flags & ContainerManager.Flags.shutDown != 0 { throw ContainerShutDownError(key: key) }
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        let resolved = effective(options, defaultScope: defaultScope)
        // FactoryTesting strict mode: a resolution that uses the definition (no
        // registration or context override applies), as for synchronous factories.
        if flags & ContainerManager.Flags.strict != 0 && resolved.options.usesDefinition { manager.reportUnmocked(key) }
        let chain = AsyncChain.current
        // Watched before the cache is read: a singleton's build that finds a cached
        // instance captures it as surely as one that builds it.
        let watch =
            flags & ContainerManager.Flags.observed != 0 || chain?.watch != nil
            ? WatchedResolution(key: key, scope: resolved.scope, ttl: resolved.ttl, flags: flags, depth: 0, manager: manager)
            : nil
        if let watch { AsyncChain.watch(watch, inside: chain) }

        let trace =
            flags & ContainerManager.Flags.trace != 0 ? AsyncTraceLine(key, in: chain, logger: manager.loggerBox) : nil

        // A cache hit reads without a lock and allocates nothing, as for synchronous factories.
        if !resolved.scopeOnParameters, let scope = resolved.scope,
            let hit = manager.cacheHit(T.self, key: key, scope: scope, ttl: resolved.ttl, box: resolved.box)
        {
            trace?.end(hit, code: UInt8(ascii: "C"))
            decorate(hit, resolved, flags)
            return hit
        }
        let value: T
        do {
            let (found, cached) = try await resolveMissed(parameter, resolved, chain: chain, watch: watch, trace: trace)
            value = found
            trace?.end(value, code: cached ? UInt8(ascii: "C") : resolved.options.code)
        } catch {
            trace?.end(throwing: error)
            throw error
        }
        decorate(value, resolved, flags)
        return value
    }

    /// Resolves after the lock-free cache missed: builds, or finds the instance
    /// in the cache after all, or joins a build under way (then `cached` is `true`).
    nonisolated(nonsending) private func resolveMissed(
        _ parameter: P, _ resolved: Effective, chain: AsyncChain?, watch: WatchedResolution?, trace: AsyncTraceLine?
    ) async throws -> (T, cached: Bool) {
        // The parameter as a cache key, made once and unlocked (it runs the
        // parameter's `hash(into:)` and `==`), and as the chain keeps it, when it can be a key.
        let lookup = ParameterLookup(parameter)
        let hashable: (any AsyncParameter)? = lookup == nil ? nil : AsyncParameterValue(parameter)
        let parameterless = P.self == Void.self
        // Always checked: a task that waits for its own build would wait forever.
        if let chain { try Self.checkCycle(key, in: chain, containerID: containerID, hashable, parameterless) }
        // Untraced inside a traced cycle, it still takes a level, as a synchronous frame does.
        let position = trace?.position ?? chain?.trace.map { AsyncTracePosition(cycle: $0.cycle, depth: $0.depth + 1) }
        let node = AsyncChain(
            key: key, containerID: containerID, parameter: hashable, parameterless: parameterless, parent: chain,
            watch: watch, trace: position)
        switch resolved.scope?.keeping ?? .nothing {
        case .nothing, .cycle:
            return (try await AsyncChain.$current.withValue(node) { try await resolved.factory(parameter) }, false)
        case .cells:
            let fetched = FetchedScopeCache(scope: resolved.scope, key: key, manager: manager)
            return try await resolveCached(parameter, lookup, node: node, fetched: fetched)
        }
    }

    /// Stops a resolution that its own chain already runs: it would wait for
    /// itself forever. Graph validation gets the error thrown instead.
    private static func checkCycle(
        _ key: FactoryKey, in chain: AsyncChain, containerID: ObjectIdentifier, _ hashable: (any AsyncParameter)?,
        _ parameterless: Bool
    ) throws {
        guard chain.contains(key, containerID: containerID, parameter: hashable, parameterless: parameterless) else {
            return
        }
        let keys = chain.keys + [key]
        let error = FactoryError.circularDependency(chain: keys.map(\.description).joined(separator: " > "))
        if AsyncValidation.isActive { throw AsyncValidationFailure(error: error, chain: keys) }
        FactoryError.fail(error)
    }

    /// Waits for another task's build of this factory. When the waiting resolution
    /// runs inside a build of its own, the wait is recorded in ``AsyncWaitGraph``,
    /// which reports two builds that wait for each other instead of suspending both
    /// forever.
    nonisolated(nonsending) private static func join(_ build: AsyncBuild<T>, from node: AsyncChain) async throws -> T? {
        guard let waiter = node.enclosingBuild else { return try await build.joinedValue() }
        try AsyncWaitGraph.beginWait(waiter, for: build.waiter, chain: node.keys)
        defer { AsyncWaitGraph.endWait(waiter) }
        return try await build.joinedValue()
    }

    private func decorate(_ value: T, _ resolved: Effective, _ flags: Int) {
        // A decorator applied at run time replaces the definition's, as for synchronous factories.
        if let persisted = resolved.persistedDecorator {
            persisted.decorator(value, false)
        } else {
            decorator?(value)
        }
        if flags & ContainerManager.Flags.decorator != 0, let all = manager.publishedDecorator { all(value) }
    }

    /// A build that a resolution of a newer generation superseded hands no value
    /// to the tasks that joined it: they decide again. The task that started it
    /// gets its outcome.
    nonisolated(nonsending) private func resolveCached(
        _ parameter: P, _ lookup: ParameterLookup?, node: AsyncChain, fetched: FetchedScopeCache
    ) async throws -> (T, cached: Bool) {
        var lookup = lookup
        while true {
            switch decide(lookup, node: node, fetched: fetched) {
            case .cached(let value):
                return (value, true)
            case .uncached(let factory):
                return (try await AsyncChain.$current.withValue(node) { try await factory(parameter) }, false)
            case .shutDown:
                throw ContainerShutDownError(key: key)
            case .join(let build):
                if let value = try await Self.join(build, from: node) { return (value, true) }
            case .build(let build, let factory):
                await start(build, factory, parameter)
                return (try await build.value(), false)
            case .compare(let candidates):
                if let value = lookup?.compare(candidates, T.self) { return (value, true) }
            }
        }
    }

    /// Runs `build`'s closure in a task of its own (inheriting task-locals: the
    /// chain, the container bindings), so that no waiter's cancellation cancels
    /// it, and publishes its outcome.
    nonisolated(nonsending) private func start(
        _ build: AsyncBuild<T>, _ factory: AsyncClosure<P, T>, _ parameter: P
    ) async {
        let manager = self.manager
        let key = self.key
        let run: @Sendable () async -> Void = {
            let outcome = await AsyncChain.$current.withValue(build.chain) {
                do { return Result<T, any Error>.success(try await factory(parameter)) } catch {
                    return .failure(error)
                }
            }
            Self.publish(outcome, of: build, key: key, manager: manager)
        }
        if AsyncValidation.isActive {
            // Graph validation runs everything on its own thread: no task of its own here.
            await run()
        } else {
            Task { await run() }
        }
    }

    /// What a resolution that missed does next, decided under the container's lock.
    enum AsyncDecision {
        /// A valid instance was cached after all.
        case cached(T)
        /// Build without caching: the scope caches nothing, the parameter cannot be
        /// a key, or this resolution runs inside the build it would join.
        case uncached(AsyncClosure<P, T>)
        /// The container was shut down since the resolution started.
        case shutDown
        /// Another task builds it, in the current generation.
        case join(AsyncBuild<T>)
        /// This resolution starts the build.
        case build(AsyncBuild<T>, AsyncClosure<P, T>)
        /// Compare the parameter with these keys, unlocked: a hit, or decide again.
        case compare(ParameterCandidates)
    }

    /// Chooses the closure and the cache again under the lock, with the decision
    /// to build: a `register` or reset that returned before this point is always
    /// seen, and a build never runs a closure older than the generation it is
    /// stamped with. The decision is the synchronous factories' one
    /// (``ContainerManager/decideAtCacheLocation(_:fetched:shutDown:resolve:place:uncached:decide:)``,
    /// ``CacheLocation/decideBuild(_:_:scopeID:ttl:shutdown:found:_:_:)``); only
    /// how a task joins a build is this kind's (``TaskJoining``).
    /// `lookup` finds the parameter's cache key; what runs the parameter's own
    /// `hash(into:)` and `==` runs before locking.
    private func decide(_ lookup: ParameterLookup?, node: AsyncChain, fetched: FetchedScopeCache) -> AsyncDecision {
        manager.decideAtCacheLocation(
            key, fetched: fetched, shutDown: .shutDown,
            resolve: { slot, defaultScope in effective(slot.persistedOptions, defaultScope: defaultScope) },
            place: { resolved in
                guard let scope = resolved.scope, !resolved.scopeOnParameters || lookup != nil else { return nil }
                return (scope, resolved.box)
            },
            uncached: { resolved in .uncached(resolved.factory) },
            decide: { location, scope, resolved, garbage, outdated in
                let parameter = resolved.scopeOnParameters ? lookup : nil
                return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
                    let found = buffer.baseAddress.unsafelyUnwrapped
                    let decision = location.decideBuild(
                        TaskJoining<T>(node: node), parameter, scopeID: ObjectIdentifier(scope), ttl: resolved.ttl,
                        shutdown: resolved.shutdown, found: found, &garbage, &outdated)
                    switch decision {
                    case .cached: return .cached(found.move())
                    // Back inside its own build with another parameter (an equal one is a
                    // cycle, reported before): joining would wait forever, so build
                    // without caching, as a synchronous factory does.
                    case .inside: return .uncached(resolved.factory)
                    case .join(let build, _): return .join(build)
                    case .build(let build, _): return .build(build, resolved.factory)
                    case .compare(let candidates): return .compare(candidates)
                    }
                }
            })
    }

    /// Ends `build` (see ``BuildClaim/end(_:storing:of:key:manager:)``) and hands its
    /// outcome to its starter and, unless the entry's generation moved on, to the
    /// tasks that joined it.
    private static func publish(
        _ outcome: Result<T, any Error>, of build: AsyncBuild<T>, key: FactoryKey, manager: ContainerManager
    ) {
        var value: T?
        if case .success(let built) = outcome { value = built }
        let current = build.claim.end(build, storing: value, of: T.self, key: key, manager: manager).current
        AsyncWaitGraph.finish(build.waiter)
        // Cut short by a `register`, reset or `pop()`: the tasks that joined it share
        // one build of the new generation instead, as waiting threads do.
        if !current { build.supersede() }
        build.finish(outcome)
    }
}

/// How tasks join a build: they suspend on the ``AsyncBuild``, which runs in a
/// task of its own.
struct TaskJoining<T: Sendable>: BuildJoining {
    let node: AsyncChain

    func build(_ running: AnyObject) -> AsyncBuild<T>? {
        running as? AsyncBuild<T>
    }

    func runsInside(_ build: AsyncBuild<T>) -> Bool {
        node.isInside(build)
    }

    func start(_ claim: BuildClaim) -> AsyncBuild<T> {
        AsyncBuild<T>(claim: claim, node: node)
    }

    func prepareToWait(at gate: inout BuildGate) {}
}

/// Marks an asynchronous factory's key: the parameter type ``FactoryKey`` holds
/// for an ``AsyncFactory`` (`P` is `Void`) or ``AsyncParameterFactory``.
public enum AsyncKind<P> {}
#endif
