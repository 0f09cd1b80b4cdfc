import CFactoryAtomics

// The synchronous kinds' resolution when the fast step (CacheHit.swift) does not apply: the shared `Resolution` plus
// what is a thread's own (the closure runs on it, between a frame entered and left on its context; it waits for
// another thread's build at a `WaitPoint`). Only `resolve` knows the types, to call the closure.

@usableFromInline
enum GeneralPath {
    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P
    ) -> T {
        withUnsafePointer(to: parameter) { resolve(registration, definition, parameter, at: UnsafeRawPointer($0)) }
    }

    /// The frame a `ParameterFactory`'s closure runs from, holding only what the closure needs: the resolution's steps
    /// run in frames of their own before and after it, and what a build carries across it lives on the thread's
    /// context, so nested resolutions stack little per level (RELIABILITY.md, guarantee 10).
    private static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P,
        at address: UnsafeRawPointer
    ) -> T {
        var box: RegistrationBoxBase?
        var kept = false
        if let found = Resolution.begin(registration, at: address, closure: &box, kept: &kept) { return found.read(T.self) }
        let value: T
        if let box {
            value = registered(box, P.self, T.self)(parameter)
        } else {
            value = definition(parameter)
        }
        finish(registration, value, at: address, kept: kept)
        return value
    }

    /// A ``Factory``'s, as above: the closure as written, `() -> T` (as `(Void) -> T` it would need a
    /// reabstraction thunk, an allocation per value), and no parameter address to record.
    @usableFromInline @inline(never)
    static func resolve<T>(_ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T) -> T {
        var box: RegistrationBoxBase?
        var kept = false
        if let found = Resolution.begin(registration, at: nil, closure: &box, kept: &kept) { return found.read(T.self) }
        let value: T
        if let box {
            value = registered(box, Void.self, T.self)(())
        } else {
            value = definition()
        }
        finish(registration, value, at: nil, kept: kept)
        return value
    }

    /// A weak cell's instance while someone else holds it, else ``resolve(_:_:)``.
    @usableFromInline @inline(never)
    static func resolve<T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable () -> T, weakHit: CellHit
    ) -> T {
        guard let found = weakHit.found() else { return resolve(registration, definition) }
        return found.read(T.self)
    }

    @usableFromInline @inline(never)
    static func resolve<P, T>(
        _ registration: FactoryRegistration, _ definition: @escaping @Sendable (P) -> T, _ parameter: P, weakHit: CellHit
    ) -> T {
        guard let found = weakHit.found() else { return resolve(registration, definition, parameter) }
        return found.read(T.self)
    }

    /// A registration's or context override's closure. The cast is certain: a slot's key names the kind, `P` and
    /// `T`, so its registrations' closures are `(P) -> T` (``RegistrationBox``).
    private static func registered<P, T>(_ box: RegistrationBoxBase, _: P.Type, _: T.Type) -> (P) -> T {
        unsafeDowncast(box, to: RegistrationBox<(P) -> T>.self).closure
    }

    /// A build that kept nothing to do after its closure only leaves its frame.
    private static func finish<T>(_ registration: FactoryRegistration, _ value: T, at address: UnsafeRawPointer?, kept: Bool) {
        guard kept else { return ResolutionContext.current.leave() }
        withUnsafePointer(to: value) { Resolution.finish(registration, $0, at: address) }
    }

    static func frame(_ registration: FactoryRegistration, pointer: UnsafeRawPointer?) -> ResolutionContext.Frame {
        ResolutionContext.Frame(key: registration.key, container: registration.containerID, parameter: pointer)
    }
}

@usableFromInline
func failMainActor(_ key: FactoryKey) -> Never { FactoryError.fail(.mainActorRequired(key)) }

extension Resolution {
    /// Up to the closure: the instance when there is nothing to build (cached, kept by this cycle, or built by the
    /// thread it waited for), the resolution then ended; else `nil`, the closure to run (`nil`: the definition's) in
    /// `closure`, and the build entered. If anything remains to do after the closure (cache its instance, keep it for
    /// the cycle, trace, watch, decorate), this resolution is `kept` on the thread's context until
    /// ``finish(_:_:at:)``; else the build's end is leaving its frame.
    static func begin(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, closure: inout RegistrationBoxBase?,
        kept: inout Bool
    ) -> FoundInstance? {
        var resolution = Resolution.begin(registration, chain: nil)
        if resolution.isShutDown { FactoryError.fail(.resolvedAfterShutdown(registration.key)) }
        let context = resolution.context.unsafelyUnwrapped.takeUnretainedValue()
        if let found = resolution.find(registration, at: address, in: context) {
            resolution.end(registration, found.address, isNew: false, traced: true)
            return found
        }
        if resolution.options.isolation == .main && !cfactory_is_main_actor() { failMainActor(registration.key) }
        if resolution.flags & ContainerManager.Flag.profile.rawValue != 0 || cfactory_profiling_everywhere() != 0 {
            resolution.profile = ProfileRecorder.begin(
                registration, resolution.options, async: false, parameterless: registration.parameterType == Void.self,
                parent: ProfileRecorder.parent(on: context), built: true)
        }
        context.enter(
            GeneralPath.frame(registration, pointer: address),
            checkCycles: resolution.flags & ContainerManager.Flag.checkCycles.rawValue != 0)
        closure = resolution.options.closure
        kept =
            resolution.claim != nil || resolution.trace != nil || resolution.watched || resolution.keepsInCycle
            || resolution.profile != nil
            || resolution.options.definition != nil || resolution.options.persisted?.value.decorator != nil
            || resolution.flags & ContainerManager.Flag.decorator.rawValue != 0
        guard kept else { return nil }
        if context.buildCount == context.buildCapacity { context.growBuilds() }
        (context.builds + context.buildCount).initialize(to: consume resolution)
        context.buildCount &+= 1
        return nil
    }

    /// After the closure built `value`: the build's frame is left, its instance cached or kept for the cycle, and the
    /// resolution ends.
    static func finish(_ registration: FactoryRegistration, _ value: UnsafeRawPointer, at address: UnsafeRawPointer?) {
        let context = ResolutionContext.current
        context.buildCount &-= 1
        let resolution = (context.builds + context.buildCount).move()
        if let profile = resolution.profile { ProfileRecorder.end(profile) }
        // Before leaving: the cycle may end with this frame.
        resolution.trace?.fill(AnyValue.load(value, registration.valueType), code: resolution.options.code)
        context.leave()
        if let claim = resolution.claim {
            claim.end(context, storing: value, type: registration.valueType)
                .cleared?.waitPoint?.open()
        }
        // Kept only inside a cycle: a top-level resolution has nobody to share with.
        if resolution.keepsInCycle && context.depth > 0 {
            let parameter = resolution.options.scopeOnParameters ? Self.cycleParameter(registration, at: address) : nil
            context.keepInCycle(registration.key, container: registration.containerID, parameter: parameter, value: value)
        }
        resolution.end(registration, value, isNew: true, traced: false)
    }

    /// A graph factory's parameter for `scopeOnParameters`, boxed; `nil` when it cannot be a key.
    private static func cycleParameter(_ registration: FactoryRegistration, at address: UnsafeRawPointer?) -> ParameterKey? {
        ParameterLookup.hashable(at: address, registration.parameterType).map { ParameterKey($0, hash: 0) }
    }

    /// The instance when there is nothing to build; `nil` for a build, with ``claim`` set when it is to be cached.
    private mutating func find(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, in context: ResolutionContext
    ) -> FoundInstance? {
        switch options.scope?.keeping ?? .nothing {
        case .nothing:
            return nil
        case .cycle:
            let parameter = options.scopeOnParameters ? Self.cycleParameter(registration, at: address) : nil
            if let found = context.findInCycle(registration.key, container: registration.containerID, parameter: parameter) {
                return found
            }
            keepsInCycle = true
            return nil
        case .cells, .preparedCells:
            return findCached(registration, at: address, in: context)
        }
    }

    /// The cache's steps until there is an instance or a build to run; a thread waits for another's build at its
    /// gate's point. A build whose instance is to be cached keeps its claim.
    private mutating func findCached(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, in context: ResolutionContext
    ) -> FoundInstance? {
        // Made once, unlocked: it runs the parameter's `hash(into:)` and `==`.
        var lookup =
            options.scopeOnParameters ? ParameterLookup(ParameterLookup.hashable(at: address, registration.parameterType)) : nil
        var waited = false
        while true {
            switch cacheStep(registration, &lookup, waited: waited, joiner: .thread(context)) {
            case .found(let found):
                return found
            case .build(let claim):
                self.claim = claim
                return nil
            case .wait(let builder, let point):
                registration.manager.waitForBuild(context, of: builder, registration, at: point)
                waited = true
            case .reentered:
                // This thread builds this entry: an equal parameter is a cycle, reported even with checking off
                // (waiting would never end); another parameter builds uncached.
                if Self.isReentry(registration, at: address, in: context) {
                    context.failCycle(GeneralPath.frame(registration, pointer: nil))
                }
                return nil
            case .shutDown:
                FactoryError.fail(.resolvedAfterShutdown(registration.key))
            default:
                preconditionFailure("FactoryCore: a thread was handed a task's step")
            }
        }
    }

    /// Built on this thread with an equal parameter (always, for a `Factory`).
    private static func isReentry(
        _ registration: FactoryRegistration, at address: UnsafeRawPointer?, in context: ResolutionContext
    ) -> Bool {
        guard address != nil else { return true }
        let frame = GeneralPath.frame(registration, pointer: address)
        return (0..<context.depth).contains { context.frames[$0].isSameBuild(as: frame) }
    }

}

extension ContainerManager {
    /// Out of line: the waiter blocks anyway, and the deciding path stays small.
    @inline(never)
    func waitForBuild(
        _ waiter: ResolutionContext, of builder: ResolutionContext, _ registration: FactoryRegistration, at point: WaitPoint
    ) {
        // Begun before it counts: a build that ends once it sees a waiter ends after the wait began.
        let profile =
            flags.value & Flag.profile.rawValue != 0 || cfactory_profiling_everywhere() != 0
            ? ProfileRecorder.beginWait(registration, byTask: false, parent: ProfileRecorder.parent(on: waiter))
            : nil
        countBuildWaiter(1)
        WaitGraph.wait(waiter, for: builder, key: registration.key, at: point)
        if let profile { ProfileRecorder.end(profile) }
        countBuildWaiter(-1)
    }
}
