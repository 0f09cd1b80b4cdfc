// Property wrappers cannot take a parameter factory: the parameter is not known where
// the property is declared. These overloads exist only so the compiler says that, and
// what to do instead, rather than "cannot convert value of type 'KeyPath<Container,
// ParameterFactory<P, T>>' to expected argument type 'KeyPath<Container, Factory<T>>'".

extension Injected {
    /// Not available: `@Injected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `Container.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@Injected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Not available: `@Injected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `MyContainer.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@Injected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension LazyInjected {
    /// Not available: `@LazyInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `Container.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@LazyInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Not available: `@LazyInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `MyContainer.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@LazyInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension WeakLazyInjected {
    /// Not available: `@WeakLazyInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `Container.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@WeakLazyInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Not available: `@WeakLazyInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `MyContainer.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@WeakLazyInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension DynamicInjected {
    /// Not available: `@DynamicInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `Container.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@DynamicInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Not available: `@DynamicInjected` takes a `Factory`, not a ``ParameterFactory``.
    ///
    /// Resolve the parameter factory where its parameter is known instead:
    /// `MyContainer.shared.greeter("Ada")`.
    @available(
        *, unavailable,
        message: "@DynamicInjected takes no ParameterFactory, as in Factory; resolve it where the parameter is known"
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}
