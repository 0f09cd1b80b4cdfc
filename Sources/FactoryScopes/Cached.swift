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
        super.init(behavior: ContainerCache(policy: .strong))
    }
}

/// Keeps instances in the resolving container's storage, held per `policy`.
struct ContainerCache: ScopeBehavior {
    let policy: ScopeStorage.Policy

    func resolve<T>(_ request: ScopeRequest, build: () -> T) -> (value: T, isNew: Bool) {
        request.manager.storage.resolve(
            ScopeStorage.SlotKey(key: request.key, parameter: request.parameter),
            scopeID: ObjectIdentifier(request.scope),
            policy: policy,
            build: build)
    }
}
