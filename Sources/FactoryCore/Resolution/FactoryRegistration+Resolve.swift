import CFactoryAtomics

extension FactoryRegistration {
    /// The general path for a parameter that has an address: the thread's
    /// resolution context points at it for the whole build, to tell a cycle from
    /// recursion.
    @_alwaysEmitIntoClient @inline(never)
    func resolveOffTheFastPath(_ parameter: P) -> T {
        withUnsafePointer(to: parameter) { resolveOffTheFastPath(parameter, at: UnsafeRawPointer($0)) }
    }

    /// The general path, with the factory's closure called here: what comes
    /// before the build (``GeneralPath/begin(_:_:at:_:found:)``) and after it
    /// (``finishFactoryResolution(_:_:_:manager:name:containerType:containerID:extras:)``)
    /// run in frames of their own, gone while the closure runs. A chain of nested
    /// resolutions then stacks this frame and the caller's per level, not the
    /// general path's frames as well (RELIABILITY.md, guarantee 10). `address` is
    /// where the parameter stays during the build, `nil` for a `Void` one.
    ///
    /// Specialized in the client but not inlined into it: the calls below pass
    /// the registration's fields in registers, and inlined they made every cache
    /// hit of the caller save and restore more of them (a cached hit 393 -> 401
    /// instructions; 768 rather than 656 bytes of stack per level is the price).
    @_alwaysEmitIntoClient @inline(never)
    func resolveOffTheFastPath(_ parameter: P, at address: UnsafeRawPointer?) -> T {
        var pending = PendingBuild()
        if let found = begin(parameter, at: address, &pending) { return found }
        let value = pending.closure(factory)(parameter)
        finishFactoryResolution(
            value, &pending, P.self, manager: manager, name: name, containerType: containerType,
            containerID: containerID, extras: extras)
        return value
    }

    /// ``GeneralPath/begin(_:_:at:_:found:)``: the instance when there is nothing
    /// to build, else `nil` and the build entered. A function of its own so that
    /// an unoptimized build drops its frames, and its closure's, before the
    /// factory's closure runs.
    @_alwaysEmitIntoClient @inline(__always)
    func begin(_ parameter: P, at address: UnsafeRawPointer?, _ pending: inout PendingBuild) -> T? {
        withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
            let instance = buffer.baseAddress.unsafelyUnwrapped
            return GeneralPath.begin(self, parameter, at: address, &pending, found: instance) ? instance.move() : nil
        }
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
}

/// The general path after the closure ``GeneralPath/begin(_:_:at:_:found:)``
/// chose built `value`: leaves the build, publishes a cached instance, keeps a
/// graph one, then ends the resolution (``PendingBuild/end(_:isNew:extras:manager:in:)``).
///
/// It takes the registration's fields, not the registration: calling a method
/// on a registration the caller holds copied the whole value first, a retain
/// and a release of each reference it holds.
@usableFromInline
func finishFactoryResolution<P, T>(
    _ value: T, _ pending: inout PendingBuild, _ parameterType: P.Type, manager: ContainerManager,
    name: StaticString, containerType: any AnyObject.Type, containerID: ObjectIdentifier,
    extras: DefinitionExtras<T>?
) {
    let context = pending.context.unsafelyUnwrapped.takeUnretainedValue()
    if pending.traceIndex >= 0 { context.endTrace(pending.traceIndex, value: value, code: pending.code) }
    context.leave()
    if let claim = pending.claim.take() {
        context.endOwnedBuild()
        let key = FactoryKey(name: name, valueType: T.self, parameterType: P.self, containerType: containerType)
        claim.publish(value, by: context, key: key, manager: manager)
    }
    // Kept only inside a cycle: a top-level graph resolution has nobody to share with.
    if pending.keepsInGraph && context.depth > 0 {
        context.keepInGraph(value, name, ObjectIdentifier(P.self), container: containerID, parameter: pending.graphKey)
    }
    pending.end(value, isNew: true, extras: extras, manager: manager, in: context)
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
    var scope: Scope?
    /// A decorator persisted at run time, which replaces the definition's.
    var decoratorBox: DecoratorBoxBase?
    var ttl: UInt64
    var scopeOnParameters: Bool
    /// How a cached instance is shut down: the persisted `onShutdown`, else the definition's.
    var shutdown: ShutdownHandlerBase?

    /// Whether the definition's own closure builds (no registration or context
    /// override applies): what strict mode calls unmocked.
    var usesDefinition: Bool { code == UInt8(ascii: "F") }
}

/// What a factory's definition says, for ``GeneralPath/merge(_:_:defaultScope:)``:
/// the same fields for a synchronous and an asynchronous factory.
struct DefinitionOptions {
    var isolation: ClosureIsolation
    /// The definition's scope, `nil` when it sets none.
    var scope: Scope?
    var ttl: UInt64
    var scopeOnParameters: Bool
    var shutdown: ShutdownHandlerBase?
    /// Context overrides declared in the definition.
    var contexts: [ContextOverride]?
}

/// What the general path decided before a build, carried across it on the
/// resolving caller's stack: filled by ``GeneralPath/begin(_:_:at:_:found:)``,
/// read by the caller for the closure and by ``finishFactoryResolution(_:_:_:manager:name:containerType:containerID:extras:)``.
/// Not generic, for the same reason as ``ResolvedOptions``.
@usableFromInline
struct PendingBuild {
    /// The box whose closure builds the instance; `nil` for the definition's closure.
    @usableFromInline var closureBox: RegistrationBoxBase?
    /// A decorator persisted at run time, which replaces the definition's.
    var decoratorBox: DecoratorBoxBase?
    /// Trace code of a new instance; see ``ResolvedOptions/code``.
    var code = UInt8(ascii: "F")
    /// The thread's context, not counted. Safe: `begin` and `finish` run on one
    /// thread within one synchronous call, and a thread's context is released
    /// only by its thread-exit destructor (`cfactory_set_context`), which cannot
    /// run inside that call; ``ResolutionContext/current`` never returns another.
    var context: Unmanaged<ResolutionContext>?
    /// The container's flags when the resolution started.
    var flags = 0
    /// The trace line this resolution fills, or -1.
    var traceIndex = -1
    /// A captive-dependency watch was started and must be ended.
    var watched = false
    /// The cache entry this build fills, if it is to be cached.
    var claim: BuildClaim?
    /// The build is a graph instance, kept for the rest of the cycle.
    var keepsInGraph = false
    /// The graph instance's parameter, with `scopeOnParameters`.
    var graphKey: AnyHashable?

    @usableFromInline init() {}

    /// The closure to run: the registered one `begin` chose, else the definition's.
    /// The box's type is certain: a slot belongs to one factory kind, which its key
    /// names, so a registration stored there was made by a factory of this `P` and `T`.
    @_alwaysEmitIntoClient @inline(__always)
    func closure<P, T>(_ definition: FactoryClosure<P, T>) -> FactoryClosure<P, T> {
        guard let box = closureBox else { return definition }
        return unsafeDowncast(box, to: RegistrationBox<P, T>.self).factory
    }

    /// Ends a resolution that has its instance: the watch, the decorators (the
    /// persisted one, else the definition's; then the container's), and a traced
    /// cycle that ends here.
    func end<T>(
        _ value: T, isNew: Bool, extras: DefinitionExtras<T>?, manager: ContainerManager, in context: ResolutionContext
    ) {
        // Before the decorators: what they resolve is not part of this build.
        if watched { context.endWatch() }
        if let box = decoratorBox {
            unsafeDowncast(box, to: DecoratorBox<T>.self).decorator(value, isNew)
        } else if let decorator = extras?.decorator {
            decorator(value, isNew)
        }
        if flags & ContainerManager.Flags.decorator != 0, let containerDecorator = manager.publishedDecorator {
            containerDecorator(value)
        }
        if traceIndex >= 0 && context.depth == 0 { context.endCycle() }
    }
}

/// The general path's steps. They are functions generic over the parameter and
/// instance types that take the registration as an argument, not methods of
/// ``FactoryRegistration``: calling a method passes the registration type's
/// metadata, which a client makes from the type's mangled name once per factory
/// type and call site (about 13,500 instructions each: the launch of a program
/// with many factories). The registration's fields have the same layout for
/// every `P` and `T`, so an argument needs no metadata.
@usableFromInline
enum GeneralPath {
    /// What a resolution of `registration` uses now: ``merge(_:_:defaultScope:)``
    /// of its definition and what its container persisted.
    static func effective<P, T>(
        _ registration: FactoryRegistration<P, T>, _ persisted: PersistedOptions?, defaultScope: Scope?
    ) -> ResolvedOptions {
        let extras = registration.extras
        let definition = DefinitionOptions(
            isolation: registration.isolation,
            scope: registration.traits.contains(.hasScope) ? registration.scopeReference?.takeUnretainedValue() : nil,
            ttl: registration.ttl, scopeOnParameters: registration.traits.contains(.scopeOnParameters),
            shutdown: extras?.shutdown, contexts: extras?.contexts)
        return merge(definition, persisted, defaultScope: defaultScope)
    }

    /// What a resolution uses, for both kinds of factory: a context override
    /// (run-time over definition, by rank) beats a registration, which beats the
    /// definition's closure; persisted modifiers beat the definition's; without a
    /// scope, the container's default scope applies.
    ///
    /// A context override written in the definition is part of the definition: it
    /// has no registration box, so its instance is kept where the definition's is
    /// (for a singleton, the storage's definition cell, not the shared one that
    /// registrations write through to).
    @inline(__always)
    static func merge(_ definition: DefinitionOptions, _ persisted: PersistedOptions?, defaultScope: Scope?) -> ResolvedOptions {
        var result = ResolvedOptions(
            closureBox: nil, isolation: definition.isolation, code: UInt8(ascii: "F"), box: nil, scope: definition.scope,
            decoratorBox: nil, ttl: definition.ttl, scopeOnParameters: definition.scopeOnParameters,
            shutdown: definition.shutdown)
        // Read field by field through the reference: a copy of the whole options
        // value would retain and release every reference it holds.
        let persistedContexts = persisted?.value.contexts ?? []
        if !persistedContexts.isEmpty || definition.contexts != nil,
            let best = bestContext(persisted: persistedContexts, definition: definition.contexts ?? [])
        {
            result.closureBox = best.box
            result.isolation = best.box.isolation
            result.code = UInt8(ascii: "O")
            result.box = best.persisted ? best.box : nil
        } else if let registered = persisted?.value.registration {
            result.closureBox = registered
            result.isolation = registered.isolation
            result.code = UInt8(ascii: "R")
            result.box = registered
        }
        if let persisted {
            if persisted.value.hasScope { result.scope = persisted.value.scope }
            result.decoratorBox = persisted.value.decorator
            if let shutdown = persisted.value.shutdown { result.shutdown = shutdown }
            if let ttl = persisted.value.ttl { result.ttl = ttl }
            if let byParameter = persisted.value.scopeOnParameters { result.scopeOnParameters = byParameter }
        }
        if result.scope == nil { result.scope = defaultScope }
        return result
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

    /// The general path up to the build: auto-registration, persisted options,
    /// context overrides, promises, strict mode, the watch, the trace, the default
    /// scope, the graph scope and the cache. Returns `true` with the instance
    /// written to `found` when there is nothing to build (a cached or graph
    /// instance; its decorators have run). Otherwise the build is entered on the
    /// thread's resolution context and `pending` says which closure to call; the
    /// caller calls it and hands the instance to
    /// ``finishFactoryResolution(_:_:_:manager:name:containerType:containerID:extras:)``.
    @usableFromInline
    static func begin<P, T>(
        _ registration: FactoryRegistration<P, T>, _ parameter: P, at address: UnsafeRawPointer?,
        _ pending: inout PendingBuild, found: UnsafeMutablePointer<T>
    ) -> Bool {
        let manager = registration.manager
        manager.ensureAutoRegistered()
        let flags = manager.flags.value
        let key = registration.key
        if flags & ContainerManager.Flags.shutDown != 0 { FactoryError.fail(.resolvedAfterShutdown(key)) }
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        var resolved = effective(registration, options, defaultScope: defaultScope)
        if resolved.usesDefinition { reportDefinitionUse(registration, resolved, flags: flags, key: key) }

        let context = ResolutionContext.current
        pending.context = Unmanaged.passUnretained(context)
        pending.flags = flags
        // Captive-dependency checks and graph validation see every resolution that gets
        // here; a container they watch sets `observed`, which keeps its hits off the fast path.
        // A per-request container's resolutions are what an async build of another container
        // captures most; only they pay for looking up the task's chain (another container's
        // synchronous factories are seen inside an async build when that container is watched).
        pending.watched =
            flags & ContainerManager.Flags.observed != 0 || context.isWatching
            || (flags & ContainerManager.Flags.perRequest != 0 && ResolutionContext.isInsideWatchedAsyncBuild)
        if pending.watched {
            context.watch(key, scope: resolved.scope, ttl: resolved.ttl, flags: flags, manager: manager)
        }
        if flags & ContainerManager.Flags.trace != 0 { pending.traceIndex = context.beginTrace(key, logger: manager.loggerBox) }
        let isFound: Bool
        switch resolved.scope?.keeping ?? .nothing {
        case .nothing:
            isFound = false
        case .cycle:
            isFound = findInGraph(
                registration, parameter, resolved.scopeOnParameters, &pending, found: found, in: context)
        case .cells:
            isFound = findCached(registration, parameter, &resolved, &pending, found: found, in: context)
        }
        // After the cache: a miss chooses the options again under the container's lock.
        pending.decoratorBox = resolved.decoratorBox
        if isFound {
            pending.end(found.pointee, isNew: false, extras: registration.extras, manager: manager, in: context)
            return true
        }
        pending.closureBox = resolved.closureBox
        pending.code = resolved.code
        if resolved.isolation == .main && !cfactory_is_main_actor() { failMainActor(key) }
        let frame = frame(registration, pointer: address)
        context.enter(frame, parameterType: P.self, checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
        return false
    }

    /// The graph scope: the instance this resolution cycle already built, written
    /// to `found`, or `false` and a build to keep for the rest of the cycle.
    private static func findInGraph<P, T>(
        _ registration: FactoryRegistration<P, T>, _ parameter: P, _ scopeOnParameters: Bool,
        _ pending: inout PendingBuild, found: UnsafeMutablePointer<T>, in context: ResolutionContext
    ) -> Bool {
        let hashable = scopeOnParameters ? hashable(parameter) : nil
        if let index = context.graphIndex(
            registration.name, valueType: ObjectIdentifier(T.self), parameterType: ObjectIdentifier(P.self),
            container: registration.containerID, parameter: hashable)
        {
            found.initialize(to: context.graphValue(at: index, as: T.self))
            if pending.traceIndex >= 0 { context.endTrace(pending.traceIndex, value: found.pointee, code: UInt8(ascii: "C")) }
            return true
        }
        pending.keepsInGraph = true
        pending.graphKey = hashable
        return false
    }

    /// A resolution is about to use the factory's definition: strict mode hears of
    /// it, and an unregistered `promised()` factory is reported.
    private static func reportDefinitionUse<P, T>(
        _ registration: FactoryRegistration<P, T>, _ resolved: ResolvedOptions, flags: Int, key: FactoryKey
    ) {
        if flags & ContainerManager.Flags.strict != 0 {
            registration.manager.reportUnmocked(key)
        }
        guard
            registration.traits.contains(.promised)
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

    /// The frame of `registration`'s build, with the parameter at `pointer`.
    static func frame<P, T>(_ registration: FactoryRegistration<P, T>, pointer: UnsafeRawPointer?) -> ResolutionContext.Frame {
        ResolutionContext.Frame(
            name: registration.name, valueType: T.self, parameterType: P.self, containerType: registration.containerType,
            container: registration.containerID, parameter: pointer)
    }

    /// `parameter` as a cache key, or `nil` when it cannot be one (not
    /// `Hashable`, or not equal to itself, like `Double.nan`: such a key would
    /// never be found again, so its instance is built but not cached).
    static func hashable<P>(_ parameter: P) -> AnyHashable? {
        guard let key = parameter as? AnyHashable, key == key else { return nil }
        return key
    }
}
