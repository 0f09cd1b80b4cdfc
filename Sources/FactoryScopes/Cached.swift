/// A per-container cache. `Scope.cached` is one; declare more for caches that
/// reset independently:
///
/// ```swift
/// extension Scope {
///     static let session = Cached()
/// }
/// extension Container {
///     var user: Factory<UserSession> { self { UserSession() }.scope(.session) }
/// }
/// Container.shared.manager.reset(scope: .session)   // on logout
/// ```
public final class Cached: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in ScopeStorage under its lock.

    /// Creates a cache distinct from every other scope.
    public init() {
        super.init(strategy: .container(.strong))
    }
}
