import CFactoryAtomics

extension FactoryRegistration {
    /// Resolves the factory.
    ///
    /// Inlined into the caller so that the common case — nothing persisted for
    /// the container, the definition's own scope — is specialised for `T`: one
    /// atomic load of the container's flags, then either the closure (unique) or
    /// a lock-free cache lookup (cached, shared, singleton). Everything else goes
    /// through ``resolveSlowly(_:)``.
    @_alwaysEmitIntoClient @inline(__always)
    package func resolve(_ parameter: P) -> T {
        let manager = self.manager
        let flags = manager.flags.value
        if flags & (ContainerManager.Flags.general | ContainerManager.Flags.ready) == ContainerManager.Flags.ready
            && traits.isDisjoint(with: .general) && extras?.contexts == nil
        {
            guard let scope = scopeReference else {
                return buildDirectly(parameter, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
            }
            // Locals only: the lookups below take closures, which must not copy this value.
            let key = self.key
            let scopeID = scope._withUnsafeGuaranteedRef { ObjectIdentifier($0) }
            let ttl = self.ttl
            let hit: T?
            switch scope._withUnsafeGuaranteedRef({ $0.strategy }) {
            case .unique:
                return buildDirectly(parameter, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
            case .container(let weak):
                hit = manager.findSlot(key)?._withUnsafeGuaranteedRef {
                    $0.cells.hit(T.self, scopeID: scopeID, ttl: ttl, weak: weak, era: 0)
                }
            case .singleton:
                let slot = manager.singletons._withUnsafeGuaranteedRef { $0.find(key) }
                hit = slot?._withUnsafeGuaranteedRef {
                    $0.definition.hit(T.self, scopeID: scopeID, ttl: ttl, weak: false, era: 0)
                }
            case .graph, .custom:
                hit = nil
            }
            if let hit {
                if let decorator = extras?.decorator { decorator(hit, false) }
                return hit
            }
        }
        // Through a pointer: handing the value itself to this unspecialized function
        // would make the caller instantiate this type's metadata, and the compiler
        // then copies and destroys factory values through it (value witness calls).
        return withUnsafePointer(to: self) { resolveFactorySlowly($0, parameter) }
    }

    /// Runs the definition's closure inside this thread's resolution cycle.
    @inlinable
    func buildDirectly(_ parameter: P, checkCycles: Bool) -> T {
        if isolation == .main && !cfactory_is_main_actor() {
            failMainActor(key)
        }
        let context = ResolutionContext.currentUnmanaged
        let value = withUnsafePointer(to: parameter) { pointer -> T in
            let frame = ResolutionContext.Frame(
                name: name, valueType: T.self, parameterType: P.self, containerType: containerType, container: containerID,
                parameter: P.self == Void.self ? nil : UnsafeRawPointer(pointer))
            context._withUnsafeGuaranteedRef { $0.enter(frame, parameterType: P.self, checkCycles: checkCycles) }
            let value = factory(parameter)
            context._withUnsafeGuaranteedRef { $0.leave() }
            return value
        }
        if let decorator = extras?.decorator { decorator(value, true) }
        return value
    }

    /// Runs `factory` for `parameter` as a frame of `context`'s chain: checks the
    /// closure's isolation and, with `checkCycles`, that the factory is not
    /// already being built on this thread with an equal parameter. Fills trace
    /// line `traceIndex` (if not -1) before leaving the frame.
    @inlinable
    static func build(
        _ factory: FactoryClosure<P, T>, isolation: ClosureIsolation, _ parameter: P, key registration: Self,
        context: ResolutionContext, checkCycles: Bool, traceIndex: Int, code: UInt8
    ) -> T {
        if isolation == .main && !cfactory_is_main_actor() {
            failMainActor(registration.key)
        }
        // A `Factory` has no parameter to point at: no closure frame for
        // `withUnsafePointer` between this level and the next (nested resolutions
        // stack one such chain per level).
        guard P.self != Void.self else {
            return buildInFrame(factory, parameter, pointer: nil, key: registration, context, checkCycles, traceIndex, code)
        }
        return withUnsafePointer(to: parameter) { pointer in
            buildInFrame(
                factory, parameter, pointer: UnsafeRawPointer(pointer), key: registration, context, checkCycles, traceIndex,
                code)
        }
    }

    /// ``build(_:isolation:_:key:context:checkCycles:traceIndex:code:)`` once the
    /// parameter's address (`nil` for a `Factory`) is known.
    @_alwaysEmitIntoClient @inline(__always)
    static func buildInFrame(
        _ factory: FactoryClosure<P, T>, _ parameter: P, pointer: UnsafeRawPointer?, key registration: Self,
        _ context: ResolutionContext, _ checkCycles: Bool, _ traceIndex: Int, _ code: UInt8
    ) -> T {
        let frame = ResolutionContext.Frame(
            name: registration.name, valueType: T.self, parameterType: P.self,
            containerType: registration.containerType, container: registration.containerID, parameter: pointer)
        context.enter(frame, parameterType: P.self, checkCycles: checkCycles)
        let value = factory(parameter)
        if traceIndex >= 0 { context.endTrace(traceIndex, value: value, code: code) }
        context.leave()
        return value
    }
}

/// ``FactoryRegistration/resolveSlowly(_:)`` for a registration behind a pointer:
/// a free function, generic over `P` and `T` only, so the caller passes their
/// metadata, not the registration type's.
@usableFromInline
func resolveFactorySlowly<P, T>(_ registration: UnsafePointer<FactoryRegistration<P, T>>, _ parameter: P) -> T {
    registration.pointee.resolveSlowly(parameter)
}

/// Stops the program: a main-actor factory closure was about to run off the main thread.
@usableFromInline
func failMainActor(_ key: FactoryKey) -> Never {
    FactoryError.fail(.mainActorRequired(key))
}

/// How a resolution resolves right now: where the closure comes from and the
/// modifiers that apply, after persisted options and contexts are merged over
/// the definition.
///
/// Not generic, on purpose: the general path runs unspecialized, and a generic
/// value there costs a type-metadata lookup each time it is made and value-witness
/// calls each time it is copied. The closure and decorator stay in their boxes
/// and are cast back to their types only where they are called.
@usableFromInline
struct ResolvedOptions {
    /// The box whose closure builds the instance; `nil` for the definition's closure.
    var closureBox: RegistrationBoxBase?
    var isolation: ClosureIsolation
    /// Trace code of a new instance (ASCII): `F` definition, `R` registration, `O` context override.
    var code: UInt8
    /// The persisted registration or override box the closure came from, if any:
    /// a singleton it builds is kept with it (see ``RegistrationBoxBase/describesType``).
    var box: RegistrationBoxBase?
    /// The closure is the factory's definition (not a mock).
    var fromDefinition: Bool
    var scope: Scope?
    /// A decorator persisted at run time, which replaces the definition's.
    var decoratorBox: DecoratorBoxBase?
    var ttl: UInt64
    var scopeOnParameters: Bool
    /// How a cached instance is shut down: the persisted `onShutdown`, else the definition's.
    var shutdown: ShutdownHandlerBase?
}

extension FactoryRegistration {
    /// Merges persisted `options` over this value's definition.
    func effective(_ persisted: PersistedOptions?, defaultScope: Scope?) -> ResolvedOptions {
        var result = ResolvedOptions(
            closureBox: nil, isolation: isolation, code: UInt8(ascii: "F"), box: nil, fromDefinition: true,
            scope: traits.contains(.hasScope) ? scope : nil, decoratorBox: nil, ttl: ttl,
            scopeOnParameters: traits.contains(.scopeOnParameters), shutdown: extras?.shutdown)
        let persistedContexts = persisted?.value.contexts ?? []
        let definitionContexts = extras?.contexts
        if !persistedContexts.isEmpty || definitionContexts != nil,
            let best = Self.bestContext(persisted: persistedContexts, definition: definitionContexts ?? [])
        {
            result.closureBox = best.box
            result.isolation = best.box.isolation
            result.code = UInt8(ascii: "O")
            result.box = best.persisted ? best.box : nil
            result.fromDefinition = !best.persisted
        } else if let registration = persisted?.value.registration {
            result.closureBox = registration
            result.isolation = registration.isolation
            result.code = UInt8(ascii: "R")
            result.box = registration
            result.fromDefinition = false
        }
        if let options = persisted?.value {
            if options.hasScope { result.scope = options.scope }
            result.decoratorBox = options.decorator
            if let shutdown = options.shutdown { result.shutdown = shutdown }
            if let ttl = options.ttl { result.ttl = ttl }
            if let byParameter = options.scopeOnParameters { result.scopeOnParameters = byParameter }
        }
        if result.scope == nil { result.scope = defaultScope }
        return result
    }

    /// The closure `resolved` names.
    @inline(__always)
    func closure(_ resolved: ResolvedOptions) -> FactoryClosure<P, T> {
        guard let box = resolved.closureBox else { return factory }
        return unsafeDowncast(box, to: RegistrationBox<P, T>.self).factory
    }

    /// Runs the decorator that applies: the persisted one, else the definition's.
    @inline(__always)
    func decorate(_ value: T, isNew: Bool, _ resolved: ResolvedOptions) {
        if let box = resolved.decoratorBox {
            unsafeDowncast(box, to: DecoratorBox<T>.self).decorator(value, isNew)
        } else if let decorator = extras?.decorator {
            decorator(value, isNew)
        }
    }

    /// The override that applies in the running context: the lowest rank wins;
    /// for the same context type a persisted override wins over the definition's,
    /// and among persisted ones the last added.
    static func bestContext(
        persisted: [ContextOverride], definition: [ContextOverride]
    ) -> (box: RegistrationBoxBase, persisted: Bool)? {
        let current = FactoryContext.current
        var best: (rank: Int, box: RegistrationBoxBase, persisted: Bool)?
        for override in definition where override.type.matches(current) {
            if persisted.contains(where: { $0.type == override.type }) { continue }
            if best == nil || override.type.rank < best!.rank { best = (override.type.rank, override.box, false) }
        }
        for override in persisted where override.type.matches(current) {
            if best == nil || override.type.rank <= best!.rank { best = (override.type.rank, override.box, true) }
        }
        return best.map { ($0.box, $0.persisted) }
    }

    /// The general path: auto-registration, persisted options, context overrides,
    /// promises, strict mode, trace, decorators, the default scope, graph scope
    /// and cache misses.
    @usableFromInline
    func resolveSlowly(_ parameter: P) -> T {
        let manager = self.manager
        manager.ensureAutoRegistered()
        let flags = manager.flags.value
        let key = self.key
        if flags & ContainerManager.Flags.shutDown != 0 { FactoryError.fail(.resolvedAfterShutdown(key)) }
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        var resolved = effective(options, defaultScope: defaultScope)
        if resolved.fromDefinition { reportDefinitionUse(resolved, flags: flags, key: key) }

        let context = ResolutionContext.current
        // Captive-dependency checks and graph validation see every resolution that gets
        // here; a container they watch sets `observed`, which keeps its hits off the fast path.
        // A per-request container's resolutions are what an async build of another container
        // captures most; only they pay for looking up the task's chain (another container's
        // synchronous factories are seen inside an async build when that container is watched).
        let watched =
            flags & ContainerManager.Flags.observed != 0 || context.isWatching
            || (flags & ContainerManager.Flags.perRequest != 0 && ResolutionContext.isInsideWatchedAsyncBuild)
        if watched { context.watch(key, scope: resolved.scope, ttl: resolved.ttl, flags: flags, manager: manager) }
        let traceIndex = flags & ContainerManager.Flags.trace != 0 ? context.beginTrace(key, logger: manager.loggerBox) : -1
        let checkCycles = flags & ContainerManager.Flags.checkCycles != 0
        let value: T
        let isNew: Bool
        switch resolved.scope?.strategy ?? .unique {
        case .unique:
            value = Self.build(
                closure(resolved), isolation: resolved.isolation, parameter, key: self, context: context,
                checkCycles: checkCycles, traceIndex: traceIndex, code: resolved.code)
            isNew = true
        case .graph:
            (value, isNew) = resolveInGraph(
                parameter, resolved, context: context, checkCycles: checkCycles, traceIndex: traceIndex)
        case .container, .singleton, .custom:
            (value, isNew) = resolveCached(
                parameter, manager: manager, key: key, resolved: &resolved, context: context, checkCycles: checkCycles,
                traceIndex: traceIndex)
        }

        // Before the decorators: what they resolve is not part of this build.
        if watched { context.endWatch() }
        decorate(value, isNew: isNew, resolved)
        if flags & ContainerManager.Flags.decorator != 0, let containerDecorator = manager.publishedDecorator {
            containerDecorator(value)
        }
        if traceIndex >= 0 && context.depth == 0 { context.endCycle() }
        return value
    }

    /// The graph scope: the instance this resolution cycle already built, or a new
    /// one, kept for the rest of the cycle when it is built inside another build.
    private func resolveInGraph(
        _ parameter: P, _ resolved: ResolvedOptions, context: ResolutionContext, checkCycles: Bool, traceIndex: Int
    ) -> (T, isNew: Bool) {
        let hashable = resolved.scopeOnParameters ? Self.hashable(parameter) : nil
        if let index = context.graphIndex(
            name, valueType: ObjectIdentifier(T.self), parameterType: ObjectIdentifier(P.self), container: containerID,
            parameter: hashable)
        {
            let cached = context.graphValue(at: index, as: T.self)
            if traceIndex >= 0 { context.endTrace(traceIndex, value: cached, code: UInt8(ascii: "C")) }
            return (cached, false)
        }
        let value = Self.build(
            closure(resolved), isolation: resolved.isolation, parameter, key: self, context: context,
            checkCycles: checkCycles, traceIndex: traceIndex, code: resolved.code)
        // Kept only inside a cycle: a top-level graph resolution has nobody to share with.
        if context.depth > 0 {
            context.keepInGraph(value, name, ObjectIdentifier(P.self), container: containerID, parameter: hashable)
        }
        return (value, true)
    }

    /// A resolution is about to use the factory's definition: strict mode hears of
    /// it, and an unregistered `promised()` factory is reported.
    private func reportDefinitionUse(_ resolved: ResolvedOptions, flags: Int, key: FactoryKey) {
        if flags & ContainerManager.Flags.strict != 0 {
            manager.reportUnmocked(key)
        }
        guard
            resolved.code == UInt8(ascii: "F") && traits.contains(.promised)
                && flags & ContainerManager.Flags.promiseTriggersError != 0
        else { return }
        // A running program reports it in DEBUG builds only, as Factory does; graph
        // validation reports it whenever the flag is on, so a release-built test run finds it too.
        #if DEBUG
        FactoryError.report(.unregisteredPromise(key))
        #else
        if ResolutionContext.current.validation != nil { FactoryError.report(.unregisteredPromise(key)) }
        #endif
    }

    /// `parameter` as a cache key, or `nil` when it cannot be one (not
    /// `Hashable`, or not equal to itself, like `Double.nan`: such a key would
    /// never be found again, so its instance is built but not cached).
    static func hashable(_ parameter: P) -> AnyHashable? {
        guard let key = parameter as? AnyHashable, key == key else { return nil }
        return key
    }
}
