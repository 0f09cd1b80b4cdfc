import CFactoryAtomics

// A sync factory's general path, when the fast step (CacheHit.swift) does not apply. Only `resolve` knows the types, to
// call the closure; the rest takes the registration and the instance's address and is not generic at all.

@usableFromInline
enum GeneralPath {
    /// ``begin(_:at:_:)`` decides, this runs the chosen closure, ``finish(_:_:_:)`` ends the build.
    /// The steps run in frames of their own around the closure's, so nested resolutions stack
    /// little per level (RELIABILITY.md, guarantee 10).
    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P
    ) -> T {
        withUnsafePointer(to: parameter) {
            resolve(registration, .parameter(definition), parameter, at: UnsafeRawPointer($0))
        }
    }

    /// For a ``Factory``: no address to record, one frame less per level of an unoptimized build.
    @usableFromInline @inline(never)
    static func resolve<T>(_ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T) -> T {
        resolve(registration, .plain(definition), (), at: nil)
    }

    /// A weak cell's instance while someone else holds it, else ``resolve(_:_:)``.
    @usableFromInline @inline(never)
    static func resolve<T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T, weakHit: CellHit
    ) -> T {
        guard let found = weakHit.found() else { return resolve(registration, .plain(definition), (), at: nil) }
        return found.read(T.self)
    }

    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P, weakHit: CellHit
    ) -> T {
        guard let found = weakHit.found() else { return resolve(registration, definition, parameter) }
        return found.read(T.self)
    }

    /// The frame the closure runs from: it keeps only what the build needs afterwards.
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

    private static func finish<T>(_ registration: FactoryRegistration, _ value: T, _ pending: inout PendingBuild) {
        withUnsafePointer(to: value) { finish(registration, $0, &pending) }
    }

    /// Up to the build. Returns an instance to copy out when there is nothing to build (cached or
    /// kept by the cycle), then ``end(_:found:_:)``; else the build is entered on the thread's
    /// context, `pending` names the closure, and its instance goes to ``finish(_:_:_:)``.
    static func begin(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, _ pending: inout PendingBuild
    ) -> FoundInstance? {
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
        // Watched containers set `observed`, keeping their hits off the fast path. Only
        // per-request containers, what async builds capture most, pay to look up the task's chain.
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

    /// For an instance ``begin(_:at:_:)`` found.
    static func end(_ registration: FactoryRegistration, found value: UnsafeRawPointer, _ pending: inout PendingBuild) {
        let context = pending.context.unsafelyUnwrapped.takeUnretainedValue()
        if pending.traceIndex >= 0 {
            context.endTrace(pending.traceIndex, value: value, type: registration.valueType, code: UInt8(ascii: "C"))
        }
        pending.end(value, isNew: false, registration, in: context)
    }

    /// After the closure built `value`: leaves the build, publishes or keeps it for the cycle, ends.
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

    /// The graph scope: the instance this cycle built, or `nil` and a build to keep for the cycle.
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

    /// Strict mode hears of it; an unregistered `promised()` factory is reported.
    private static func reportDefinitionUse(
        _ registration: FactoryRegistration, _ resolved: ResolvedOptions, flags: Int, key: FactoryKey
    ) {
        if flags & ContainerManager.Flags.strict != 0 {
            registration.manager.reportUnmocked(key)
        }
        guard resolved.promised && flags & ContainerManager.Flags.promiseTriggersError != 0 else { return }
        // DEBUG only, as Factory does; graph validation whenever the flag is on, so release test runs find it.
        #if DEBUG
        FactoryError.report(.unregisteredPromise(key))
        #else
        if ResolutionContext.current.validation != nil { FactoryError.report(.unregisteredPromise(key)) }
        #endif
    }

    static func frame(_ registration: FactoryRegistration, pointer: UnsafeRawPointer?) -> ResolutionContext.Frame {
        ResolutionContext.Frame(
            name: registration.name, valueType: registration.valueType, parameterType: registration.parameterType,
            containerType: registration.containerType, container: registration.containerID, parameter: pointer)
    }

    /// `nil` when not `Hashable` or unequal to itself (`Double.nan`): never found again, so not cached.
    static func hashable<P>(_ parameter: P) -> AnyHashable? {
        guard let key = parameter as? AnyHashable, key == key else { return nil }
        return key
    }

    static func hashable(at address: UnsafeRawPointer?, _ type: Any.Type) -> AnyHashable? {  // `nil` without a parameter
        guard let address else { return nil }
        func key<P>(_: P.Type) -> AnyHashable? { hashable(address.assumingMemoryBound(to: P.self).pointee) }
        return key(type)
    }
}

@usableFromInline
func failMainActor(_ key: FactoryKey) -> Never { FactoryError.fail(.mainActorRequired(key)) }

/// What the general path decided, carried across the build on the caller's stack.
struct PendingBuild {
    var closureBox: RegistrationBoxBase?  // nil: the definition's closure
    var decorator: DecoratorBoxBase?
    var code = UInt8(ascii: "F")  // see ResolvedOptions.code
    /// Unretained. Safe: `begin` and `finish` run on one thread in one synchronous call, and a
    /// thread's context is released only by its thread-exit destructor, which cannot run inside it.
    var context: Unmanaged<ResolutionContext>?
    var flags = 0
    var traceIndex = -1
    var watched = false
    /// The thread's context keeps the build's claim (``ResolutionContext/endOwnedBuild()``).
    var claimed = false
    var cycleScope: Unmanaged<Scope>?  // scopes are never freed
    var cycleKey: CycleKey?

    init() {}

    /// The cast is certain: a slot's key names the kind, `P` and `T`, so its registration's closure
    /// is `(P) -> T` (``RegistrationBox``). A debug build checks it.
    @inline(__always)
    func closure<P, T>(_ definition: FactoryClosure<P, T>) -> FactoryClosure<P, T> {
        guard let box = closureBox else { return definition }
        return .parameter(unsafeDowncast(box, to: RegistrationBox<(P) -> T>.self).closure)
    }

    /// The watch, the decorators (the factory's, then the container's), and a traced cycle ending here.
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

/// Boxed, being rare, so the state kept on the stack while the closure runs stays small.
final class CycleKey {
    let value: AnyHashable

    init(_ value: AnyHashable) { self.value = value }
}

package enum AnyValue {
    /// A copy of the instance at `address`, of type `type`, as `Any`.
    package static func load(_ address: UnsafeRawPointer, _ type: Any.Type) -> Any {
        func load<V>(_: V.Type) -> Any { address.assumingMemoryBound(to: V.self).pointee }
        return load(type)
    }
}
