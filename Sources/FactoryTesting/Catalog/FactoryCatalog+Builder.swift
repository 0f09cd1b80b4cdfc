extension FactoryCatalog {
    /// Collects a catalog's entries; generated code calls it once per factory.
    ///
    /// There is one method per factory type, each in two forms: with the key path,
    /// and, for a property isolated to the main actor, with a main-actor closure
    /// that makes the key path (a key path to a main-actor property can only be
    /// made there). The container is `C.shared` for a ``SharedContainer``, or the
    /// instance given with ``ParameterSamples/use(_:)``.
    ///
    /// A catalog of several modules (``FactoryCatalog/init(testTarget:_:)``) adds
    /// each module's entries inside ``module(_:_:)``.
    public struct Builder {
        var entries: [Entry] = []
        var skipped: [Skipped] = []
        /// The module the entries added now belong to.
        var currentModule: String

        init(module: String) {
            currentModule = module
        }

        /// Adds the entries `build` adds as factories declared in module `name`.
        ///
        /// ```swift
        /// FactoryCatalog(testTarget: "AppTests") {
        ///     $0.module("Domain") {
        ///         $0.factory("Container.clock", \Container.clock, access: .public)
        ///     }
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - name: The module that declares the factories.
        ///   - build: Adds them, with the same methods.
        public mutating func module(_ name: String, _ build: (inout Builder) -> Void) {
            let outer = currentModule
            currentModule = name
            build(&self)
            currentModule = outer
        }

        /// Adds a `Factory`, resolved as `container.factory()`.
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.api`.
        ///   - keyPath: The property, as `\Container.api`.
        ///   - access: The property's access level.
        public mutating func factory<C: ManagedContainer, T>(
            _ name: String, _ keyPath: any KeyPath<C, Factory<T>> & Sendable, access: AccessLevel
        ) {
            add(name, .factory, access, isMainActor: false) { context in
                CatalogItems.prepare(C.self, context) { CatalogItems.plain($0[keyPath: keyPath]) }
            }
        }

        /// Adds a `ParameterFactory`, resolved with its sample (``ParameterSamples``).
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.greeter`.
        ///   - keyPath: The property, as `\Container.greeter`.
        ///   - access: The property's access level.
        public mutating func factory<C: ManagedContainer, P, T>(
            _ name: String, _ keyPath: any KeyPath<C, ParameterFactory<P, T>> & Sendable, access: AccessLevel
        ) {
            add(name, .parameterFactory, access, isMainActor: false) { context in
                CatalogItems.prepare(C.self, context) { container in
                    CatalogItems.parameter(container[keyPath: keyPath], at: keyPath, name, context)
                }
            }
        }

        /// Adds an `AsyncFactory`, awaited within the validation's time limit.
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.database`.
        ///   - keyPath: The property, as `\Container.database`.
        ///   - access: The property's access level.
        public mutating func factory<C: ManagedContainer, T: Sendable>(
            _ name: String, _ keyPath: any KeyPath<C, AsyncFactory<T>> & Sendable, access: AccessLevel
        ) {
            add(name, .asyncFactory, access, isMainActor: false) { context in
                CatalogItems.prepare(C.self, context) { CatalogItems.async($0[keyPath: keyPath], context) }
            }
        }

        /// Adds an `AsyncParameterFactory`, awaited with its sample within the time limit.
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.report`.
        ///   - keyPath: The property, as `\Container.report`.
        ///   - access: The property's access level.
        public mutating func factory<C: ManagedContainer, P: Sendable, T: Sendable>(
            _ name: String, _ keyPath: any KeyPath<C, AsyncParameterFactory<P, T>> & Sendable, access: AccessLevel
        ) {
            add(name, .asyncParameterFactory, access, isMainActor: false) { context in
                CatalogItems.prepare(C.self, context) { container in
                    CatalogItems.asyncParameter(container[keyPath: keyPath], at: keyPath, name, context)
                }
            }
        }

        /// Adds a main-actor `Factory`: read and resolved on the main actor.
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.viewModel`.
        ///   - access: The property's access level.
        ///   - keyPath: Makes the key path, as `{ \Container.viewModel }`.
        public mutating func factory<C: ManagedContainer, T>(
            _ name: String, access: AccessLevel, mainActor keyPath: @escaping @MainActor @Sendable () -> KeyPath<C, Factory<T>>
        ) {
            add(name, .factory, access, isMainActor: true) { context in
                CatalogItems.prepareOnMainActor(C.self, context) { CatalogItems.plain($0[keyPath: keyPath()]) }
            }
        }

        /// Adds a main-actor `ParameterFactory`: read and resolved on the main actor,
        /// with the sample for its parameter type.
        ///
        /// - Parameters:
        ///   - name: The container type and property.
        ///   - access: The property's access level.
        ///   - keyPath: Makes the key path, as `{ \Container.detail }`.
        public mutating func factory<C: ManagedContainer, P, T>(
            _ name: String, access: AccessLevel,
            mainActor keyPath: @escaping @MainActor @Sendable () -> KeyPath<C, ParameterFactory<P, T>>
        ) {
            add(name, .parameterFactory, access, isMainActor: true) { context in
                CatalogItems.prepareOnMainActor(C.self, context) { container in
                    let path = keyPath()
                    return CatalogItems.parameter(container[keyPath: path], at: path, name, context)
                }
            }
        }

        /// Adds a main-actor `AsyncFactory`: read on the main actor, awaited like any other.
        ///
        /// - Parameters:
        ///   - name: The container type and property.
        ///   - access: The property's access level.
        ///   - keyPath: Makes the key path.
        public mutating func factory<C: ManagedContainer, T: Sendable>(
            _ name: String, access: AccessLevel,
            mainActor keyPath: @escaping @MainActor @Sendable () -> KeyPath<C, AsyncFactory<T>>
        ) {
            add(name, .asyncFactory, access, isMainActor: true) { context in
                CatalogItems.prepareOnMainActor(C.self, context) {
                    CatalogItems.async($0[keyPath: keyPath()], context)
                }
            }
        }

        /// Adds a main-actor `AsyncParameterFactory`: read on the main actor, awaited with its sample.
        ///
        /// - Parameters:
        ///   - name: The container type and property.
        ///   - access: The property's access level.
        ///   - keyPath: Makes the key path.
        public mutating func factory<C: ManagedContainer, P: Sendable, T: Sendable>(
            _ name: String, access: AccessLevel,
            mainActor keyPath: @escaping @MainActor @Sendable () -> KeyPath<C, AsyncParameterFactory<P, T>>
        ) {
            add(name, .asyncParameterFactory, access, isMainActor: true) { context in
                CatalogItems.prepareOnMainActor(C.self, context) { container in
                    let path = keyPath()
                    return CatalogItems.asyncParameter(container[keyPath: path], at: path, name, context)
                }
            }
        }

        /// Lists a factory that a test cannot reach, with the reason; it is reported, not validated.
        ///
        /// - Parameters:
        ///   - name: The container type and property, as `Container.secret`.
        ///   - access: The property's access level.
        ///   - reason: Why it is not validated.
        public mutating func skipped(_ name: String, access: AccessLevel, reason: String) {
            skipped.append(Skipped(module: currentModule, name: name, access: access, reason: reason))
        }

        private mutating func add(
            _ name: String, _ kind: Entry.Kind, _ access: AccessLevel, isMainActor: Bool,
            _ prepare: @escaping @Sendable (CatalogContext) -> CatalogPreparation
        ) {
            entries.append(
                Entry(
                    module: currentModule, name: name, kind: kind, access: access, isMainActor: isMainActor,
                    prepare: prepare))
        }
    }
}
