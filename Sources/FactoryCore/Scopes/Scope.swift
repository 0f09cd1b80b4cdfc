/// How long an instance that a factory builds is kept, and who shares it. Core defines the type and
/// ``Scope/unique`` (no caching, the default); `FactoryScopes` adds `.singleton`, `.cached`, `.shared`,
/// `.graph` and custom scopes such as:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// A scope that keeps its instances elsewhere (per thread, per request) is made with FactoryScopes'
/// `Scope(cacheStrategy:)` and a `CacheStrategy`. A scope is an identity: two `Cached()` instances are
/// two separate caches. Scopes hold no instances (those live in the ``ContainerManager``, in singleton
/// storage, or in the resolution cycle) and live for the rest of the process, so declare them `static let`.
open class Scope: @unchecked Sendable {
    // Sendable: its only state, the strategy and what it says, is immutable.

    package let strategy: any ScopeStrategy
    /// The strategy's ``ScopeStrategy/keeping``, stored so the hit path reads it without a protocol call.
    @usableFromInline package let keeping: ScopeKeeping

    package init(strategy: any ScopeStrategy) {
        self.strategy = strategy
        keeping = strategy.keeping
        // Factory values refer to their scope unretained (a retain per resolution on one shared
        // object would make threads contend), so a scope must never be freed.
        Self.everyScope.withLock { $0.append(self) }
    }

    private static let everyScope = LockedBox<[Scope]>([])

    /// No caching: every resolution runs the factory closure. The default.
    public static let unique: Scope = Unique()
}

/// The scope that caches nothing: every resolution builds a new instance.
public final class Unique: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own (see Scope).

    /// Creates a unique scope. ``Scope/unique`` is the shared instance.
    public init() { super.init(strategy: UniqueStrategy()) }
}

final class UniqueStrategy: ScopeStrategy {
    var keeping: ScopeKeeping { .nothing }

    func lifetime(ttl: UInt64, perRequest: Bool) -> WatchedLifetime { perRequest ? .short : .transparent }

    var label: String { "unique" }
}
