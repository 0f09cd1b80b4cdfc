import CFactoryAtomics

// The general path of a synchronous factory: everything a resolution does when
// the fast step (CacheHit.swift) does not apply. Only `resolve` knows the
// factory's types, to call its closure; it is compiled once, in the library, for
// every type. Everything else takes the factory's registration and the
// instance's address, and is not generic at all.

/// The general path's steps.
@usableFromInline
enum GeneralPath {
    /// Resolves a synchronous factory whose fast step did not apply
    /// (``FactoryRegistration/fastStep(parameter:)``): ``begin(_:at:_:)`` decides,
    /// this runs the closure it chose, and ``finish(_:_:_:)`` ends the build.
    ///
    /// The closure runs from this frame (and, for a parameter factory, the one
    /// that takes the parameter's address): the general path's own steps run in
    /// frames of their own before and after it, so a chain of nested resolutions
    /// stacks little per level (RELIABILITY.md, guarantee 10).
    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P
    )
        -> T
    {
        withUnsafePointer(to: parameter) {
            resolve(registration, .parameter(definition), parameter, at: UnsafeRawPointer($0))
        }
    }

    /// ``resolve(_:_:_:)`` for a ``Factory``, whose parameter is `Void`, with no
    /// address to record: one frame less for each nested level of an unoptimized build.
    @usableFromInline @inline(never)
    static func resolve<T>(_ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T) -> T {
        resolve(registration, .plain(definition), (), at: nil)
    }

    /// Resolves a ``Factory`` whose hit found a weak cell (the shared scope): its
    /// instance while someone else holds it, else ``resolve(_:_:)``.
    @usableFromInline @inline(never)
    static func resolve<T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T, weakHit: CellHit
    )
        -> T
    {
        guard let found = weakHit.found() else { return resolve(registration, .plain(definition), (), at: nil) }
        return found.read(T.self)
    }

    /// Resolves a ``ParameterFactory`` whose hit found a weak cell; see ``resolve(_:_:weakHit:)``.
    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P, weakHit: CellHit
    ) -> T {
        guard let found = weakHit.found() else { return resolve(registration, definition, parameter) }
        return found.read(T.self)
    }

    /// ``resolve(_:_:_:)`` with the parameter at `address`. The frame the factory's
    /// closure runs from: what it keeps is what the build needs after the closure.
    private static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: FactoryClosure<P, T>, _ parameter: P, at address: UnsafeRawPointer?
    ) -> T {
        var pending = PendingBuild()
        if let found = begin(registration, at: address, &pending) {
            end(registration, found: found.address, &pending)
            return found.read(T.self)
        }
        let value = pending.closure(definition)(parameter)
        finish(registration, value, &pending)
        return value
    }

    /// ``finish(_:_:_:)`` with the instance's address.
    private static func finish<T>(_ registration: FactoryRegistration, _ value: T, _ pending: inout PendingBuild) {
        withUnsafePointer(to: value) { finish(registration, $0, &pending) }
    }

    /// The general path up to the build: auto-registration, persisted options,
    /// context overrides, promises, strict mode, the watch, the trace, the default
    /// scope, the cycle's and the cache's instances. Returns the instance when
    /// there is nothing to build (a cached instance, or one the resolution cycle
    /// keeps): the caller copies it out and ends the resolution with
    /// ``end(_:found:_:)``. Otherwise the build is entered on the thread's
    /// resolution context and `pending` says which closure to call; the caller
    /// calls it and hands the instance to ``finish(_:_:_:)``.
    static func begin(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, _ pending: inout PendingBuild
    )
        -> FoundInstance?
    {
        let manager = registration.manager
        manager.ensureAutoRegistered()
        let flags = manager.flags.value
        let key = registration.key
        if flags & ContainerManager.Flags.shutDown != 0 { FactoryError.fail(.resolvedAfterShutdown(key)) }
        var resolved = ResolvedOptions.now(registration, flags: flags)
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
        let found: FoundInstance?
        switch resolved.scope?.keeping ?? .nothing {
        case .nothing:
            found = nil
        case .cycle:
            found = findInCycle(registration, at: address, resolved, &pending, in: context)
        case .cells:
            found = findCached(registration, at: address, &resolved, &pending, in: context)
        }
        // After the cache: a miss chooses the options again under the container's lock.
        pending.decorator = resolved.decorator
        if let found { return found }
        pending.closureBox = resolved.closureBox
        pending.code = resolved.code
        if resolved.isolation == .main && !cfactory_is_main_actor() { failMainActor(key) }
        context.enter(frame(registration, pointer: address), checkCycles: flags & ContainerManager.Flags.checkCycles != 0)
        return nil
    }

    /// Ends a resolution ``begin(_:at:_:)`` found an instance for, now at `value`:
    /// its trace line, and ``PendingBuild/end(_:isNew:_:in:)``.
    static func end(_ registration: FactoryRegistration, found value: UnsafeRawPointer, _ pending: inout PendingBuild) {
        let context = pending.context.unsafelyUnwrapped.takeUnretainedValue()
        if pending.traceIndex >= 0 {
            context.endTrace(pending.traceIndex, value: value, type: registration.valueType, code: UInt8(ascii: "C"))
        }
        pending.end(value, isNew: false, registration, in: context)
    }

    /// The general path after the closure ``begin(_:at:_:)`` chose built the
    /// instance at `value`: leaves the build, publishes a cached instance, keeps
    /// one for the cycle, then ends the resolution (``PendingBuild/end(_:isNew:_:in:)``).
    static func finish(_ registration: FactoryRegistration, _ value: UnsafeRawPointer, _ pending: inout PendingBuild) {
        let context = pending.context.unsafelyUnwrapped.takeUnretainedValue()
        if pending.traceIndex >= 0 {
            context.endTrace(pending.traceIndex, value: value, type: registration.valueType, code: pending.code)
        }
        context.leave()
        if pending.claimed {
            context.endOwnedBuild().publish(
                value, type: registration.valueType, by: context, key: registration.key, manager: registration.manager)
        }
        // Kept only inside a cycle: a top-level resolution has nobody to share with.
        if let scope = pending.cycleScope, context.depth > 0 {
            scope._withUnsafeGuaranteedRef {
                $0.strategy.keepInCycle(
                    context, registration.key, container: registration.containerID, parameter: pending.cycleKey?.value,
                    value: value)
            }
        }
        pending.end(value, isNew: true, registration, in: context)
    }

    /// A scope that keeps instances for the resolution cycle (the graph scope):
    /// the instance this cycle already built, or `nil` and a build to keep for the
    /// rest of the cycle.
    private static func findInCycle(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, _ resolved: ResolvedOptions,
        _ pending: inout PendingBuild, in context: ResolutionContext
    ) -> FoundInstance? {
        let scope = resolved.scope.unsafelyUnwrapped
        let parameter = resolved.scopeOnParameters ? hashable(at: address, registration.parameterType) : nil
        if let found = scope.strategy.findInCycle(
            context, registration.key, container: registration.containerID, parameter: parameter)
        {
            return found
        }
        pending.cycleScope = Unmanaged.passUnretained(scope)
        pending.cycleKey = parameter.map(CycleKey.init)
        return nil
    }

    /// A resolution is about to use the factory's definition: strict mode hears of
    /// it, and an unregistered `promised()` factory is reported.
    private static func reportDefinitionUse(
        _ registration: FactoryRegistration, _ resolved: ResolvedOptions, flags: Int, key: FactoryKey
    ) {
        if flags & ContainerManager.Flags.strict != 0 {
            registration.manager.reportUnmocked(key)
        }
        guard resolved.promised && flags & ContainerManager.Flags.promiseTriggersError != 0 else { return }
        // A running program reports it in DEBUG builds only, as Factory does; graph
        // validation reports it whenever the flag is on, so a release-built test run finds it too.
        #if DEBUG
        FactoryError.report(.unregisteredPromise(key))
        #else
        if ResolutionContext.current.validation != nil { FactoryError.report(.unregisteredPromise(key)) }
        #endif
    }

    /// The frame of `registration`'s build, with the parameter at `pointer`.
    static func frame(_ registration: FactoryRegistration, pointer: UnsafeRawPointer?) -> ResolutionContext.Frame {
        ResolutionContext.Frame(
            name: registration.name, valueType: registration.valueType, parameterType: registration.parameterType,
            containerType: registration.containerType, container: registration.containerID, parameter: pointer)
    }

    /// `parameter` as a cache key, or `nil` when it cannot be one (not
    /// `Hashable`, or not equal to itself, like `Double.nan`: such a key would
    /// never be found again, so its instance is built but not cached).
    static func hashable<P>(_ parameter: P) -> AnyHashable? {
        guard let key = parameter as? AnyHashable, key == key else { return nil }
        return key
    }

    /// The parameter at `address`, of type `type`, as a cache key (see
    /// ``hashable(_:)``); `nil` without a parameter.
    static func hashable(at address: UnsafeRawPointer?, _ type: Any.Type) -> AnyHashable? {
        guard let address else { return nil }
        func key<P>(_: P.Type) -> AnyHashable? {
            hashable(address.assumingMemoryBound(to: P.self).pointee)
        }
        return key(type)
    }
}

/// Stops the program: a main-actor factory closure was about to run off the main thread.
@usableFromInline
func failMainActor(_ key: FactoryKey) -> Never {
    FactoryError.fail(.mainActorRequired(key))
}

/// What the general path decided before a build, carried across it on the
/// resolving caller's stack: filled by ``GeneralPath/begin(_:at:_:)``, read
/// by the caller for the closure and by ``GeneralPath/finish(_:_:_:)``.
struct PendingBuild {
    /// The box whose closure builds the instance; `nil` for the definition's closure.
    var closureBox: RegistrationBoxBase?
    /// The decorator: one persisted at run time, else the definition's.
    var decorator: DecoratorBoxBase?
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
    /// The build fills a cache entry: the thread's context keeps its claim
    /// (``ResolutionContext/endOwnedBuild()``).
    var claimed = false
    /// The scope that keeps the build's instance for the rest of the cycle (a
    /// scope lives for the whole process: unretained).
    var cycleScope: Unmanaged<Scope>?
    /// The cycle instance's parameter, with `scopeOnParameters`.
    var cycleKey: CycleKey?

    init() {}

    /// The closure to run: the registered one `begin` chose, else the definition's.
    /// The box's type is certain: a slot belongs to one factory, which its key names
    /// (kind, `P` and `T` included), so a registration stored there was made by a
    /// synchronous factory of this `P` and `T`, whose closure is `(P) -> T` (see
    /// ``RegistrationBox``). A debug build checks the cast.
    @inline(__always)
    func closure<P, T>(_ definition: FactoryClosure<P, T>) -> FactoryClosure<P, T> {
        guard let box = closureBox else { return definition }
        return .parameter(unsafeDowncast(box, to: RegistrationBox<(P) -> T>.self).closure)
    }

    /// Ends a resolution that has its instance, at `value`: the watch, the
    /// decorators (the persisted one, else the definition's; then the
    /// container's), and a traced cycle that ends here.
    func end(_ value: UnsafeRawPointer, isNew: Bool, _ registration: FactoryRegistration, in context: ResolutionContext) {
        // Before the decorators: what they resolve is not part of this build.
        if watched { context.endWatch() }
        if let box = decorator {
            box.decorate(value, isNew: isNew)
        }
        if flags & ContainerManager.Flags.decorator != 0, let containerDecorator = registration.manager.publishedDecorator {
            containerDecorator(AnyValue.load(value, registration.valueType))
        }
        if traceIndex >= 0 && context.depth == 0 { context.endCycle() }
    }
}

/// The parameter a cycle instance is kept for: boxed, as it is rare, so that the
/// state a resolution keeps on its stack while the closure runs stays small.
final class CycleKey {
    let value: AnyHashable

    init(_ value: AnyHashable) {
        self.value = value
    }
}

/// Values the engine holds by address and type, as `Any`.
package enum AnyValue {
    /// The instance at `address`, of type `type`, as `Any` (a copy).
    package static func load(_ address: UnsafeRawPointer, _ type: Any.Type) -> Any {
        func load<V>(_: V.Type) -> Any {
            address.assumingMemoryBound(to: V.self).pointee
        }
        return load(type)
    }
}
