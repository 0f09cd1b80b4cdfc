import Synchronization

/// Counts instances of one kind made and released (their `deinit` ran).
///
/// The request-scoped types count themselves here, so a load run can check, over
/// millions of requests, that every request let go of what it built: once the
/// server is quiet, `made == released` for each kind.
public final class LifetimeCounter: Sendable {
    private let madeCount = Atomic(0)
    private let releasedCount = Atomic(0)

    /// A counter at zero.
    public init() {}

    /// Counts one instance made.
    public func made() {
        madeCount.wrappingAdd(1, ordering: .relaxed)
    }

    /// Counts one instance released.
    public func released() {
        releasedCount.wrappingAdd(1, ordering: .relaxed)
    }

    /// The counts now.
    public var count: Lifetime {
        // Released first: a release read before its instance's making would show a
        // made count below the released one.
        let released = releasedCount.load(ordering: .acquiring)
        return Lifetime(made: madeCount.load(ordering: .acquiring), released: released)
    }
}

/// How many instances of a kind were made and released.
public struct Lifetime: Codable, Equatable, Sendable, CustomStringConvertible {
    /// Instances made.
    public let made: Int
    /// Instances whose `deinit` ran.
    public let released: Int

    /// Instances alive now.
    public var live: Int { made - released }

    /// `made <n>, released <n>`.
    public var description: String { "made \(made), released \(released)" }
}

/// The request-scoped instances of this process, counted as they are made and released.
public enum RequestLifetimes {
    /// The requests' containers (by hand: their ``HandRequestScope``s), counted
    /// through a ``ContainerLifetime`` that the container's registrations hold.
    public static let containers = LifetimeCounter()
    /// ``RequestSession``s: one per request that resolves it.
    public static let sessions = LifetimeCounter()
    /// ``Greeter``s: unique, one per resolution.
    public static let greeters = LifetimeCounter()

    /// `containers made <n>, released <n>; sessions ...; greeters ...`.
    public static var summary: String {
        "containers \(containers.count); sessions \(sessions.count); greeters \(greeters.count)"
    }
}

/// Stands for one request's container in ``RequestLifetimes/containers``.
///
/// A `Container` cannot count its own `deinit`, so ``RequestContainerMiddleware``
/// makes one of these per request and has a registration of the request's
/// container hold it: it is released when the container lets go of its
/// registrations, that is when the container is freed.
public final class ContainerLifetime: Sendable {
    /// Counts one container made.
    public init() {
        RequestLifetimes.containers.made()
    }

    deinit {
        RequestLifetimes.containers.released()
    }
}
