// `@_alwaysEmitIntoClient`, like the resolution path below them: a specialized client never calls
// an unspecialized copy, so FactoryCore does not carry one (about 45 KB; Examples/CLITool/README.md).

/// Resolves a factory of `Container.shared`: `let service = resolve(\.service)`.
@_alwaysEmitIntoClient
public func resolve<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a factory of a shared container: `resolve(\OrderContainer.service)`.
@_alwaysEmitIntoClient
public func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}

/// Resolves a parameter factory of `Container.shared`.
@_alwaysEmitIntoClient
public func resolve<P, T>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>, parameter: P) -> T {
    Container.shared[keyPath: keyPath](parameter)
}

/// Resolves a parameter factory of a shared container.
@_alwaysEmitIntoClient
public func resolve<C: SharedContainer, P, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> T {
    C.shared[keyPath: keyPath](parameter)
}

/// Resolves a factory of `Container.shared`; the same as ``resolve(_:)-(KeyPath<Container,Factory<T>>)``, for
/// functional injection: `let load = dependency(\.accountLoader)`.
@_alwaysEmitIntoClient
public func dependency<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a factory of a shared container.
@_alwaysEmitIntoClient
public func dependency<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}

/// Resolves a parameter factory of `Container.shared`.
@_alwaysEmitIntoClient
public func dependency<P, T>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>, parameter: P) -> T {
    Container.shared[keyPath: keyPath](parameter)
}

/// Resolves a parameter factory of a shared container.
@_alwaysEmitIntoClient
public func dependency<C: SharedContainer, P, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> T {
    C.shared[keyPath: keyPath](parameter)
}
