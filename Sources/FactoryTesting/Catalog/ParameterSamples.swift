/// The parameters catalog validation resolves parameter factories with, given in one place.
///
/// A sample for a type serves every factory of the catalog that takes that type; a
/// sample for one factory's key path serves that factory and wins over the type's.
/// A parameter factory without either is not resolved: the report lists it as
/// unchecked, and ``FactoryCatalog/validate(_:asyncTimeLimit:fileID:filePath:line:column:)``
/// fails the test for it.
///
/// ```swift
/// let samples = ParameterSamples {
///     $0.add("Ann")                        // every factory that takes a String
///     $0.add(7, for: \Container.pager)     // this factory only
///     $0.use(RequestContainer())           // a container type without `shared`
/// }
/// ```
public struct ParameterSamples: Sendable {
    private var byType: [ObjectIdentifier: any Sendable] = [:]
    private var byKeyPath: [(keyPath: any AnyKeyPath & Sendable, value: any Sendable)] = []
    private var containers: [ObjectIdentifier: any ManagedContainer] = [:]

    /// No samples: every parameter factory is reported unchecked.
    public init() {}

    /// Samples added by `build`.
    ///
    /// - Parameter build: Adds samples with ``add(_:)`` and `add(_:for:)`, and containers
    ///   with ``use(_:)``.
    public init(_ build: (inout ParameterSamples) -> Void) {
        build(&self)
    }

    /// Resolves every parameter factory whose parameter type is exactly `P` with `value`.
    ///
    /// - Parameter value: The parameter; a later sample of the same type replaces it.
    public mutating func add<P: Sendable>(_ value: P) {
        byType[ObjectIdentifier(P.self)] = value
    }

    /// Resolves one parameter factory with `value`, whatever the samples for its type.
    ///
    /// - Parameters:
    ///   - value: The parameter.
    ///   - keyPath: The factory, as `\Container.greeter`.
    public mutating func add<C: ManagedContainer, P: Sendable, T>(
        _ value: P, for keyPath: any KeyPath<C, ParameterFactory<P, T>> & Sendable
    ) {
        byKeyPath.append((keyPath, value))
    }

    /// Resolves one async parameter factory with `value`, whatever the samples for its type.
    ///
    /// - Parameters:
    ///   - value: The parameter.
    ///   - keyPath: The factory, as `\Container.report`.
    public mutating func add<C: ManagedContainer, P: Sendable, T: Sendable>(
        _ value: P, for keyPath: any KeyPath<C, AsyncParameterFactory<P, T>> & Sendable
    ) {
        byKeyPath.append((keyPath, value))
    }

    /// Resolves the factories of `C` on `container`.
    ///
    /// A shared container type (``SharedContainer``) is otherwise validated on its
    /// `shared` instance, read on the calling task (so the `.container` trait's
    /// instance); a container type without `shared` needs this, or its factories
    /// are reported unchecked.
    ///
    /// - Parameter container: The instance to resolve `C`'s factories on.
    public mutating func use<C: ManagedContainer>(_ container: C) {
        containers[ObjectIdentifier(C.self)] = container
    }

    /// The sample for the factory at `keyPath`, which takes a `P`: its own, or its type's.
    func sample<P>(for keyPath: AnyKeyPath, _: P.Type) -> (any Sendable)? {
        if let own = byKeyPath.last(where: { $0.keyPath == keyPath }) { return own.value }
        return byType[ObjectIdentifier(P.self)]
    }

    /// The instance to validate `C`'s factories on: the one given with ``use(_:)``,
    /// else `C.shared` for a shared container type.
    func container<C: ManagedContainer>(_: C.Type) -> C? {
        if let given = containers[ObjectIdentifier(C.self)] as? C { return given }
        if let shared = C.self as? any SharedContainer.Type { return shared.shared as? C }
        return nil
    }
}
