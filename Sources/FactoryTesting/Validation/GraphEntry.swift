/// One factory for graph validation to resolve.
///
/// Key paths to plain factories can be listed directly
/// (`validateGraph(\.api, \.feed)`); a `ParameterFactory` needs a
/// parameter to resolve with, so list it as an entry:
///
/// ```swift
/// Container.shared.validateGraph([
///     .factory(\.api),
///     .factory(\.greeter, parameter: "Ann"),
/// ])
/// ```
public struct GraphEntry<C: ManagedContainer> {
    /// Reads the factory from the container, on the calling thread, and turns it
    /// into something another thread can resolve.
    let prepare: (C) -> ValidationItem

    private init(prepare: @escaping (C) -> ValidationItem) {
        self.prepare = prepare
    }

    /// A factory, resolved as `container.factory()`.
    ///
    /// - Parameter keyPath: The factory's key path, e.g. `\.api`.
    public static func factory<T>(_ keyPath: KeyPath<C, Factory<T>>) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.key)") { _ = factory() }
        }
    }

    /// A parameter factory, resolved as `container.factory(parameter)`.
    ///
    /// - Parameters:
    ///   - keyPath: The factory's key path, e.g. `\.greeter`.
    ///   - parameter: What to resolve it with.
    public static func factory<P: Sendable, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return ValidationItem(name: "\(factory.key)") { _ = factory(parameter) }
        }
    }

    /// Any key path: a plain factory is resolved; anything else is reported, since
    /// it cannot be resolved without more information.
    static func keyPath(_ keyPath: PartialKeyPath<C>) -> Self {
        Self { container in
            switch container[keyPath: keyPath] {
            case let factory as any ResolvableWithoutParameter:
                return ValidationItem(name: "\(factory.key)") { factory.resolveDiscardingResult() }
            case let factory as any FactoryModifying:
                return ValidationItem(
                    name: "\(factory.key)",
                    problem: .missingParameter,
                    message: "\(factory.key) takes a parameter; list it as .factory(keyPath, parameter: ...)")
            default:
                return ValidationItem(
                    name: "\(keyPath)",
                    problem: .notAFactory,
                    message: "\(keyPath) is not a Factory of \(C.self)")
            }
        }
    }
}

/// A factory that can be resolved without a parameter: lets validation resolve a
/// `Factory<T>` found behind a type-erased key path.
protocol ResolvableWithoutParameter: Sendable {
    var key: FactoryKey { get }
    func resolveDiscardingResult()
}

extension Factory: ResolvableWithoutParameter {
    func resolveDiscardingResult() {
        _ = resolve()
    }
}

/// One factory, ready to be resolved on a validation thread.
struct ValidationItem: Sendable {
    /// How reports name it: the factory's key, or the key path when it is not a factory.
    let name: String
    /// Resolves the factory; `nil` when it cannot be resolved (see `problem`).
    let resolve: (@Sendable () -> Void)?
    let problem: GraphFailure.Kind?
    let message: String?

    init(name: String, resolve: @escaping @Sendable () -> Void) {
        self.name = name
        self.resolve = resolve
        self.problem = nil
        self.message = nil
    }

    init(name: String, problem: GraphFailure.Kind, message: String) {
        self.name = name
        self.resolve = nil
        self.problem = problem
        self.message = message
    }
}
