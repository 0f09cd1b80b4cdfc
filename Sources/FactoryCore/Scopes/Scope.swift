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
/// A scope is an identity: two `Cached()` instances are two separate caches.
/// Scope objects hold no instances (those live in the container's
/// ``ContainerManager``, in singleton storage, or in the resolution cycle) and
/// live for the rest of the process once created, so declare them as `static let`.
open class Scope: @unchecked Sendable {
    // Sendable because a scope's only state is its immutable strategy.

    /// Where and how instances of this scope are kept.
    @usableFromInline package let strategy: ScopeStrategy

    package init(strategy: ScopeStrategy) {
        self.strategy = strategy
        // Factory values refer to their scope without retaining it (a retain per
        // resolution on one shared object would make threads contend), so a scope
        // must never be freed.
        Self.everyScope.withLock { $0.append(self) }
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
}
