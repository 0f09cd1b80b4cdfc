/// How long an instance that a factory builds is kept, and who shares it.
///
/// Core defines the type and ``Scope/unique`` (no caching, the default).
/// `FactoryScopes` adds `.singleton`, `.cached`, `.shared`, `.graph` and custom
/// scopes such as:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// A scope that keeps its instances somewhere else (per thread, per request)
/// is made with ``init(cacheStrategy:)`` and a ``CacheStrategy``.
///
/// A scope is an identity: two `Cached()` instances are two separate caches.
/// Scope objects hold no instances (those live in the container's
/// ``ContainerManager``, in singleton storage, or in the resolution cycle) and
/// live for the rest of the process once created, so declare them as `static let`.
open class Scope: @unchecked Sendable {
    // Sendable because a scope's only state is its immutable strategy (a Sendable `CacheStrategy` for a custom scope).

    /// Where and how instances of this scope are kept.
    @usableFromInline package let strategy: ScopeStrategy
    /// The strategy of a scope made with ``init(cacheStrategy:)``.
    @usableFromInline package let cacheStrategy: (any CacheStrategy)?
    /// Whether every resolution builds (``Scope/unique``): the one strategy the
    /// hit path tells apart, since it has nothing to look up.
    @usableFromInline package let cachesNothing: Bool

    package init(strategy: ScopeStrategy) {
        self.strategy = strategy
        if case .unique = strategy { cachesNothing = true } else { cachesNothing = false }
        cacheStrategy = nil
        Self.keepForever(self)
    }

    /// A scope that caches where `cacheStrategy` says, with everything else a
    /// cache does (one build at a time, resets, time to live) done by the library.
    ///
    /// Like every scope, it is an identity that lives for the rest of the process:
    /// declare it once, as a `static let`.
    public init(cacheStrategy: any CacheStrategy) {
        strategy = .custom
        cachesNothing = false
        self.cacheStrategy = cacheStrategy
        Self.keepForever(self)
    }

    /// Factory values refer to their scope without retaining it (a retain per
    /// resolution on one shared object would make threads contend), so a scope
    /// must never be freed.
    private static func keepForever(_ scope: Scope) {
        everyScope.withLock { $0.append(scope) }
    }

    private static let everyScope = LockedBox<[Scope]>([])

    /// No caching: every resolution runs the factory closure. The default.
    public static let unique: Scope = Unique()
}

/// The scope that caches nothing: every resolution builds a new instance.
public final class Unique: Scope, @unchecked Sendable {
    // Sendable for the same reason as Scope: no stored state of its own.

    /// Creates a unique scope. ``Scope/unique`` is the shared instance.
    public init() {
        super.init(strategy: .unique)
    }
}

/// Where a scope keeps what it caches. `FactoryScopes` picks one per scope; the
/// resolution path switches over it directly, so a cache hit is specialised for
/// the factory's type in the caller's module instead of going through a
/// protocol witness.
@usableFromInline
package enum ScopeStrategy: Sendable {
    /// Build on every resolution.
    case unique
    /// Keep one instance per container instance; `weak` holds it only while someone else does.
    case container(weak: Bool)
    /// Keep one instance per singleton storage (the process's, or a test's).
    case singleton
    /// Keep one instance per resolution cycle.
    case graph
    /// Keep instances where the scope's ``CacheStrategy`` says.
    case custom
}
