/// How long an instance that a factory builds is kept, and who shares it.
///
/// Core defines the type and ``Scope/unique`` (no caching, the default).
/// `FactoryScopes` adds `.singleton`, `.cached`, `.shared`, `.graph`,
/// time-to-live scopes and custom scopes such as:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// A scope is an identity: two `Cached()` instances are two separate caches.
/// Scope objects are immutable; the instances they keep live in the
/// container's ``ContainerManager`` (or, for singletons, in process-wide
/// storage, and for graph, in the resolution cycle), never in the scope object.
open class Scope: @unchecked Sendable {
    // Sendable because a scope holds only a `let`; cached instances live in ScopeStorage under its lock.

    /// Where and how instances of this scope are kept.
    @usableFromInline package let strategy: ScopeStrategy

    package init(strategy: ScopeStrategy) {
        self.strategy = strategy
    }

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
    /// Keep in the resolving container's storage, held per the policy.
    case container(ScopeStorage.Policy)
    /// Keep in the container's singleton storage (the process's, or a test's).
    case singleton
    /// Keep in the current resolution cycle.
    case graph
}
