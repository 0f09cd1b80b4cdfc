/// A longer-lived instance that captured a shorter-lived one while built (a singleton resolving a
/// cached, shared, ttl, graph or per-request factory; a long-lived container's cached factory
/// resolving a per-request one), keeping it past resets, requests or its time to live.
package struct CaptiveDependency: Sendable {
    /// Both chains run from the outermost resolution to the holder, or to the captured factory.
    package let holderChain: [FactoryKey]
    package let chain: [FactoryKey]
    package let holderScope: String
    package let capturedScope: String

    package var holder: FactoryKey { holderChain[holderChain.count - 1] }
    package var captured: FactoryKey { chain[chain.count - 1] }

    package var message: String {
        "FactoryCore: captive dependency - \(holder) (\(holderScope)) resolves \(captured) (\(capturedScope)) "
            + "and keeps it beyond its scope; chain: " + chain.map(\.description).joined(separator: " > ")
    }
}

/// How long what a resolution keeps lives, for the captive-dependency check.
package enum WatchedLifetime: Sendable {
    /// Unique: the check looks past it to the nearest factory that keeps its instance.
    case transparent
    case process  // a singleton without ttl
    case container  // cached or shared in a long-lived container, without ttl
    case short  // a ttl, the graph scope, or any factory of a per-request container
    /// A custom ``CacheStrategy``: neither captures nor is reported as captured.
    case unknown
}

/// A watched resolution. It keeps its label's parts, not the label, built only for a report or a
/// validation edge: a per-request container watches every one of its resolutions.
package struct WatchedResolution: Sendable {
    package let key: FactoryKey
    package let scope: Scope?
    package let ttl: UInt64
    package let perRequest: Bool
    package let lifetime: WatchedLifetime
    /// A sync resolution's index in ``ResolutionContext/frames``; unused for async ones.
    package let depth: Int
    package let manager: ContainerManager  // told about captures when no validation runs

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

    package var scopeLabel: String { ResolutionContext.scopeLabel(scope, ttl: ttl, perRequest: perRequest) }

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

    /// To graph validation on this thread, else the holder's container, else this one's.
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
    /// Graph validation runs here, or a watched build is under way: every general-path resolution is watched.
    package var isWatching: Bool { validation != nil || !watched.isEmpty }

    /// Checks a resolution against the builds it runs inside (this thread's, or its task's async
    /// ones), reports a capture, tells graph validation the edge; ``endWatch()`` ends it.
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

    @inline(never)
    package func endWatch() { watched.removeLast() }

    static func lifetime(_ scope: Scope?, ttl: UInt64, perRequest: Bool) -> WatchedLifetime {
        (scope ?? Scope.unique).strategy.lifetime(ttl: ttl, perRequest: perRequest)
    }

    /// The strategy's label (`unique`, `cached`, ...), then `, timeToLive` and `, per-request` when they apply.
    package static func scopeLabel(_ scope: Scope?, ttl: UInt64, perRequest: Bool) -> String {
        var label = (scope ?? Scope.unique).strategy.label
        if ttl != 0 { label += ", timeToLive" }
        if perRequest { label += ", per-request" }
        return label
    }
}

extension ContainerManager {
    /// Whether this container lives for one request (or another unit of work) of a server, so a
    /// long-lived instance that keeps one of its instances keeps it past the request. Off by default.
    ///
    /// The captive-dependency check (``logsCaptiveDependencies``, FactoryTesting's graph validation and
    /// strict mode) reports a singleton, or a cached factory of a container that is not per-request,
    /// whose closure resolves a factory of this container (other than a singleton). Every resolution of
    /// a per-request container takes the general path, so the check sees cache hits too; as it starts
    /// with empty caches, most of them are builds, which take that path anyway.
    public var isPerRequest: Bool {
        get { lock.withLock { state.isPerRequest } }
        set { mutate { $0.isPerRequest = newValue } }
    }

    /// Logs through ``logger`` each captive dependency a build of this container's factories runs into:
    /// a singleton whose closure resolves (directly, or through unique factories) a cached, shared,
    /// time-to-live, graph or per-request factory, or a cached factory that resolves a factory of a
    /// per-request container (``isPerRequest``). The line names both factories, their scopes and the
    /// chain between them. Off by default in every build configuration; turn it on in DEBUG builds.
    ///
    /// While it is on, every resolution of this container takes the general path (a cache hit costs about a build's
    /// bookkeeping). Another container's factories are seen when they take that path: builds of cached and singleton
    /// factories, per-request containers, and containers with this option on; its cache hits and unique builds are not.
    /// Async factories are covered the same way, across their `await`s; inside an async build, a synchronous factory of
    /// another container is seen when that container is per-request or watched itself.
    public var logsCaptiveDependencies: Bool {
        get { lock.withLock { state.logsCaptives } }
        set { mutate { $0.logsCaptives = newValue } }
    }

    package func setCaptiveObserver(_ observer: (@Sendable (CaptiveDependency) -> Void)?) {
        replace(\.captiveObserver, with: observer)
    }

    /// Every resolution takes the general path until ``endValidation()``, so validation sees hits too.
    package func beginValidation() { mutate { $0.validations += 1 } }

    package func endValidation() { mutate { $0.validations -= 1 } }

    /// Strict mode's observer, else the logger if on; `false` when neither listens. No lock held.
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
    /// A sync factory no watched build on this thread holds, against its task's async builds.
    func watchInsideAsyncBuild(_ resolution: WatchedResolution) {
        AsyncChain.current?.reportIfHolderCaptures(resolution, through: chainKeys)
    }

    /// The async resolution whose closure a depth-0 sync resolution runs in.
    static var asyncParent: FactoryKey? { AsyncChain.current?.key }

    @inline(never)
    static var isInsideWatchedAsyncBuild: Bool { AsyncChain.current?.watch != nil }
}

extension AsyncChain {
    /// The nearest watched node keeping its instance; watching is inherited, so the walk stops at
    /// the first unwatched node.
    var watchedHolder: AsyncChain? {
        var node: AsyncChain? = self
        while let current = node, let watch = current.watch {
            if watch.lifetime != .transparent { return current }
            node = current.parent
        }
        return nil
    }

    /// `between`: the sync resolutions from this chain's innermost one to `resolution`.
    func reportIfHolderCaptures(_ resolution: WatchedResolution, through between: [FactoryKey]) {
        guard let holderNode = watchedHolder, let holder = holderNode.watch, holder.captures(resolution) else { return }
        resolution.reportCaptured(by: holder, holderChain: holderNode.keys, chain: keys + between + [resolution.key])
    }

    /// ``ResolutionContext/watch(_:scope:ttl:flags:manager:)`` for an async resolution inside `chain`.
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
