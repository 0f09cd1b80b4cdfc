extension Scope {
    /// One instance for the whole process, shared by every container instance
    /// that resolves the factory from its definition.
    ///
    /// Reset by ``Singleton/reset()`` or `manager.reset(options: .singletons)`;
    /// a container-wide `.all` reset leaves singletons alone. A factory's own
    /// `reset(.scope)` drops that factory's singleton. A singleton built from a
    /// mock registered on one container instance stays with that registration:
    /// other instances keep the definition's singleton.
    public static let singleton = Singleton()

    /// One instance per container instance, until that container's scope cache
    /// is reset (`manager.reset(scope: .cached)` or `manager.reset(options: .scope)`).
    public static let cached = Cached()

    /// Held weakly: the instance lives as long as someone else holds it, and the
    /// next resolution after that builds a new one. For class instances only; other
    /// values are never cached.
    public static let shared = Shared()

    /// One instance per resolution cycle: everything resolved inside one top-level
    /// resolution shares it; the next top-level resolution gets a new one.
    public static let graph = Graph()
}
