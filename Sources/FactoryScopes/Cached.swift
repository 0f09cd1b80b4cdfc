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
///
/// Like every scope, a `Cached` instance lives for the rest of the process:
/// declare custom scopes as `static let`.
public final class Cached: Scope, @unchecked Sendable {
    // Sendable: no stored state of its own; instances live in the container's cache.

    /// Creates a cache distinct from every other scope.
    public init() {
        super.init(strategy: ContainerCellsStrategy(weak: false))
    }
}
