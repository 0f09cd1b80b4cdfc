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
        let perRequest = flags & ContainerManager.Flag.perRequest.rawValue != 0
        self.key = key
        self.scope = scope
        self.ttl = ttl
        self.perRequest = perRequest
        self.lifetime = (scope ?? Scope.unique).lifetime.shortened(ttl: ttl, perRequest: perRequest)
        self.depth = depth
        self.manager = manager
    }

    /// A resolution of `registration` with `options`, as the check sees it.
    init(_ registration: FactoryRegistration, _ options: ResolvedOptions, flags: Int, depth: Int) {
        self.init(
            key: registration.key, scope: options.scope, ttl: options.ttl, flags: flags, depth: depth,
            manager: registration.manager)
    }

    package var scopeLabel: String {
        (scope ?? Scope.unique).label + (ttl != 0 ? ", timeToLive" : "") + (perRequest ? ", per-request" : "")
    }

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
