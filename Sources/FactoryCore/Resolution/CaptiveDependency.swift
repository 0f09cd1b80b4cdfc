/// A longer-lived instance that captured a shorter-lived one while it was built:
/// a singleton that resolved a cached, shared, time-to-live, graph or per-request
/// factory, or a cached factory of a long-lived container that resolved a
/// factory of a per-request container.
///
/// The holder keeps the captured instance after its own scope would have let it
/// go: a reset, a new request or the time to live no longer gives the holder a
/// fresh one.
package struct CaptiveDependency: Sendable {
    /// The resolutions from the outermost one down to the holder, the holder last.
    package let holderChain: [FactoryKey]
    /// The resolutions from the outermost one down to the captured factory, the captured one last.
    package let chain: [FactoryKey]
    /// How the holder is kept: `singleton`, `cached`, `shared`, ... (see ``WatchedResolution/scopeLabel``).
    package let holderScope: String
    /// How the captured factory is kept.
    package let capturedScope: String

    /// The factory that keeps the captured instance.
    package var holder: FactoryKey { holderChain[holderChain.count - 1] }
    /// The factory whose instance is captured.
    package var captured: FactoryKey { chain[chain.count - 1] }

    /// Names both factories with their scopes, and the chain between them.
    package var message: String {
        "FactoryCore: captive dependency - \(holder) (\(holderScope)) resolves \(captured) (\(capturedScope)) "
            + "and keeps it beyond its scope; chain: " + chain.map(\.description).joined(separator: " > ")
    }
}

/// How long what a resolution keeps lives, for the captive-dependency check.
package enum WatchedLifetime: Sendable {
    /// Not kept (unique): what it resolves is held by whoever holds it, so the
    /// check looks past it to the nearest factory that keeps its instance.
    case transparent
    /// A singleton without a time to live: kept for the process.
    case process
    /// Cached or shared in a long-lived container, without a time to live.
    case container
    /// A time to live, the graph scope, or any factory of a per-request container.
    case short
    /// A custom ``CacheStrategy``: how long it keeps instances is unknown, so it
    /// neither captures nor is reported as captured.
    case unknown
}

/// One resolution the captive-dependency check or graph validation watches.
///
/// It keeps what its scope label is made of rather than the label, which is
/// built only for a report or a validation edge: a per-request container watches
/// every one of its resolutions.
package struct WatchedResolution: Sendable {
    package let key: FactoryKey
    package let scope: Scope?
    package let ttl: UInt64
    package let perRequest: Bool
    package let lifetime: WatchedLifetime
    /// Where a synchronous resolution's frame is (or would be) in
    /// ``ResolutionContext/frames``; unused for an asynchronous one, whose
    /// ``AsyncChain`` node knows its outer resolutions.
    package let depth: Int
    /// The holder's container: told about captures when no validation runs.
    package let manager: ContainerManager

    package init(key: FactoryKey, scope: Scope?, ttl: UInt64, flags: Int, depth: Int, manager: ContainerManager) {
        let perRequest = flags & ContainerManager.Flags.perRequest != 0
        self.key = key
        self.scope = scope
        self.ttl = ttl
        self.perRequest = perRequest
        self.lifetime = ResolutionContext.lifetime(scope, ttl: ttl, perRequest: perRequest)
        self.depth = depth
        self.manager = manager
    }

    /// How reports and drawn graphs name this resolution's scope.
    package var scopeLabel: String {
        ResolutionContext.scopeLabel(scope, ttl: ttl, perRequest: perRequest)
    }

    /// Whether this resolution, building, captures `resolution`.
    func captures(_ resolution: WatchedResolution) -> Bool {
        switch lifetime {
        case .process:
            return resolution.lifetime == .container || resolution.lifetime == .short
        case .container:
            return resolution.perRequest && resolution.lifetime == .short
        case .transparent, .short, .unknown:
            return false
        }
    }

    /// Reports that `holder` (whose outer resolutions are `holderChain`, the
    /// holder last) captured this resolution (reached through `chain`, this one
    /// last): to graph validation when one runs on this thread, else to the
    /// holder's container, else to this one's.
    func reportCaptured(by holder: WatchedResolution, holderChain: [FactoryKey], chain: [FactoryKey]) {
        let capture = CaptiveDependency(
            holderChain: holderChain, chain: chain, holderScope: holder.scopeLabel, capturedScope: scopeLabel)
        if let validation = ResolutionContext.current.validation {
            validation.captured(capture)
        } else if !holder.manager.reportCaptive(capture) {
            _ = manager.reportCaptive(capture)
        }
    }
}

extension ResolutionContext {
    /// Whether this thread watches every resolution that takes the general path,
    /// whatever its container: graph validation runs here, or a watched build is
    /// under way.
    package var isWatching: Bool {
        validation != nil || !watched.isEmpty
    }

    /// Checks a resolution about to run against the builds it happens inside
    /// (on this thread, or the asynchronous builds of the task it runs in),
    /// reports a capture, tells graph validation about the edge, and starts
    /// watching the resolution; ``endWatch()`` ends it.
    @inline(never)
    package func watch(_ key: FactoryKey, scope: Scope?, ttl: UInt64, flags: Int, manager: ContainerManager) {
        let resolution = WatchedResolution(key: key, scope: scope, ttl: ttl, flags: flags, depth: depth, manager: manager)
        if let holder = watched.last(where: { $0.lifetime != .transparent }) {
            if holder.captures(resolution) {
                let chain = chainKeys
                resolution.reportCaptured(
                    by: holder, holderChain: Array(chain.prefix(holder.depth + 1)), chain: chain + [key])
            }
        } else {
            watchInsideAsyncBuild(resolution)
        }
        if let validation {
            let parent = depth > 0 ? frames[depth - 1].key : Self.asyncParent
            validation.resolved(key, scope: resolution.scopeLabel, parent: parent)
        }
        watched.append(resolution)
    }

    /// Stops watching the innermost watched resolution, which has ended.
    @inline(never)
    package func endWatch() {
        watched.removeLast()
    }

    static func lifetime(_ scope: Scope?, ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        (scope ?? Scope.unique).strategy.lifetime(ttl: ttl, perRequest: perRequest)
    }

    /// How reports and drawn graphs name a scope: `unique`, `singleton`, `cached`
    /// (any `Cached` scope), `shared`, `graph` or `custom`, followed by
    /// `, timeToLive` and `, per-request` when they apply.
    package static func scopeLabel(_ scope: Scope?, ttl: UInt64, perRequest: Bool) -> String {
        var label = (scope ?? Scope.unique).strategy.label
        if ttl != 0 { label += ", timeToLive" }
        if perRequest { label += ", per-request" }
        return label
    }
}

extension ContainerManager {
    /// Whether this container lives for one request (or another unit of work)
    /// of a server: a long-lived instance that keeps one of its instances keeps
    /// it past the request. Off by default.
    ///
    /// The captive-dependency check (``logsCaptiveDependencies``, FactoryTesting's
    /// graph validation and strict mode) reports a singleton, or a cached factory
    /// of a container that is not per-request, whose closure resolves a factory of
    /// this container (other than a singleton, which is kept for the process anyway).
    ///
    /// Every resolution of a per-request container takes the general path, so that
    /// the check sees it even when it is a cache hit. A per-request container starts
    /// with empty caches, so most of its resolutions are builds, which take that
    /// path anyway.
    public var isPerRequest: Bool {
        get { lock.withLock { state.isPerRequest } }
        set { mutate { $0.isPerRequest = newValue } }
    }

    /// Logs each captive dependency that a build of this container's factories
    /// runs into through ``logger``: a singleton whose closure resolves (directly,
    /// or through unique factories) a cached, shared, time-to-live, graph or
    /// per-request factory, or a cached factory that resolves a factory of a
    /// per-request container (see ``isPerRequest``). The line names both factories
    /// with their scopes and the chain between them. Off by default, in every build
    /// configuration; turn it on in DEBUG builds where you want it.
    ///
    /// While it is on, every resolution of this container takes the general path
    /// (a cache hit costs about what a build's bookkeeping does). Factories of
    /// another container are seen when they take that path: builds of cached and
    /// singleton factories, per-request containers, and containers with this
    /// option on; a cache hit or a unique build of another container is not.
    /// Covers asynchronous factories the same way, across their `await`s. Inside
    /// an async build, a synchronous factory of another container is seen when
    /// that container is per-request or watched itself (as one of this container's
    /// own factories always is).
    public var logsCaptiveDependencies: Bool {
        get { lock.withLock { state.logsCaptives } }
        set { mutate { $0.logsCaptives = newValue } }
    }

    /// Installs (or, with `nil`, removes) FactoryTesting strict mode's observer of
    /// captive dependencies.
    package func setCaptiveObserver(_ observer: (@Sendable (CaptiveDependency) -> Void)?) {
        replace(\.captiveObserver, with: observer)
    }

    /// Makes every resolution of this container take the general path until the
    /// matching ``endValidation()``, for graph validation to see cache hits too.
    package func beginValidation() {
        mutate { $0.validations += 1 }
    }

    /// Ends what ``beginValidation()`` started.
    package func endValidation() {
        mutate { $0.validations -= 1 }
    }

    /// Tells strict mode's observer, or the logger when ``logsCaptiveDependencies``
    /// is on, about `capture`; `false` when neither listens. Both run with no lock held.
    package func reportCaptive(_ capture: CaptiveDependency) -> Bool {
        let (observer, logger) = lock.withLock { (state.captiveObserver, state.logsCaptives ? state.logger : nil) }
        if let observer {
            observer(capture)
            return true
        }
        guard let logger else { return false }
        logger.log(capture.message)
        return true
    }
}

#if SwiftConcurrency
extension ResolutionContext {
    /// Checks a synchronous resolution that no watched build on this thread
    /// holds against the asynchronous builds of the task it runs in: a
    /// synchronous factory resolved inside an async singleton's closure.
    func watchInsideAsyncBuild(_ resolution: WatchedResolution) {
        AsyncChain.current?.reportIfHolderCaptures(resolution, through: chainKeys)
    }

    /// The asynchronous resolution whose closure a synchronous resolution at depth 0 runs in.
    static var asyncParent: FactoryKey? { AsyncChain.current?.key }

    /// Whether the running task is inside a watched asynchronous resolution.
    @inline(never)
    static var isInsideWatchedAsyncBuild: Bool { AsyncChain.current?.watch != nil }
}

extension AsyncChain {
    /// The nearest watched resolution, this one or an outer one, that keeps its
    /// instance. Watching is inherited, so the walk stops at the first node that
    /// is not watched.
    var watchedHolder: AsyncChain? {
        var node: AsyncChain? = self
        while let current = node, let watch = current.watch {
            if watch.lifetime != .transparent { return current }
            node = current.parent
        }
        return nil
    }

    /// Reports `resolution` when the nearest watched build of this chain that
    /// keeps its instance captures it; `between` are the synchronous resolutions
    /// on the way from this chain's innermost one to `resolution`.
    func reportIfHolderCaptures(_ resolution: WatchedResolution, through between: [FactoryKey]) {
        guard let holderNode = watchedHolder, let holder = holderNode.watch, holder.captures(resolution) else { return }
        resolution.reportCaptured(by: holder, holderChain: holderNode.keys, chain: keys + between + [resolution.key])
    }

    /// Checks an asynchronous resolution about to run inside `chain` (the
    /// resolving task's chain) against the builds it happens inside, reports a
    /// capture, and tells graph validation about the edge.
    @inline(never)
    package static func watch(_ resolution: WatchedResolution, inside chain: AsyncChain?) {
        chain?.reportIfHolderCaptures(resolution, through: [])
        if let validation = ResolutionContext.current.validation {
            validation.resolved(resolution.key, scope: resolution.scopeLabel, parent: chain?.key)
        }
    }
}
#else
extension ResolutionContext {
    func watchInsideAsyncBuild(_ resolution: WatchedResolution) {}
    static var asyncParent: FactoryKey? { nil }
    static var isInsideWatchedAsyncBuild: Bool { false }
}
#endif
