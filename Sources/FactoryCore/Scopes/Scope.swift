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
/// storage), never in the scope object itself.
open class Scope: @unchecked Sendable {
    // Sendable because a scope holds only `let` properties; cached instances live in ScopeStorage under its lock.

    /// The caching strategy; `nil` means unique (build on every resolution).
    package let behavior: (any ScopeBehavior)?

    package init(behavior: (any ScopeBehavior)?) {
        self.behavior = behavior
    }

    /// No caching: every resolution runs the factory closure. The default.
    public static let unique: Scope = Unique()
}

/// The scope that caches nothing: every resolution builds a new instance.
public final class Unique: Scope, @unchecked Sendable {
    // Sendable for the same reason as Scope: no stored state of its own.

    /// Creates a unique scope. ``Scope/unique`` is the shared instance.
    public init() {
        super.init(behavior: nil)
    }
}

/// A caching strategy that a ``Scope`` applies to one resolution.
///
/// Implemented by `FactoryScopes`; core calls it through the scope.
package protocol ScopeBehavior: Sendable {
    /// Returns the cached instance for `request`, or builds, caches and returns a new one.
    func resolve<T>(_ request: ScopeRequest, build: () -> T) -> (value: T, isNew: Bool)
}

/// What a ``ScopeBehavior`` needs to find or store one cached instance.
package struct ScopeRequest {
    /// The scope being applied; its identity tags the cache entry.
    package let scope: Scope
    /// The factory being resolved.
    package let key: FactoryKey
    /// The container's manager, which owns the per-container storage.
    package let manager: ContainerManager
    /// The parameter, for `scopeOnParameters`; `nil` means one instance per factory.
    package let parameter: AnyHashable?
}
