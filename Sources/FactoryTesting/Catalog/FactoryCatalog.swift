/// Every factory of a module's containers, found by the compiler rather than
/// listed by hand: one call validates them all.
///
/// A catalog is generated, not written. The `factory-catalog` command of this
/// package's `FactoryCatalog` plugin reads the compiler's symbol graph of a target
/// and writes a Swift file into its test target with one line per factory:
///
/// ```swift
/// extension FactoryCatalog {
///     static let myApp = FactoryCatalog(module: "MyApp") {
///         $0.factory("Container.api", \Container.api, access: .public)
///         $0.factory("Container.greeter", \Container.greeter, access: .internal)
///         $0.skipped("Container.secret", access: .private, reason: "a test target cannot reach it")
///     }
/// }
/// ```
///
/// A test then validates every factory in it, and the plugin's `--check` mode
/// fails CI when a factory was added or removed without regenerating the file
/// (see <doc:CheckingTheWholeGraph>):
///
/// ```swift
/// @Test(.container) func everyFactoryResolves() {
///     FactoryCatalog.myApp.validate(ParameterSamples { $0.add("Ann") })
/// }
/// ```
///
/// For an app split into modules, `--test-target AppTests` catalogs every module the
/// test target depends on into one catalog, each module's entries in a
/// ``Builder/module(_:_:)`` block (see <doc:ModularApps>).
public struct FactoryCatalog: Sendable {
    /// The module whose containers the factories belong to; for a catalog of the
    /// modules a test target depends on, the test target.
    public let module: String
    /// The modules that declare the catalog's factories, in catalog order.
    public let modules: [String]
    /// The factories to validate, in the order the catalog lists them.
    public let entries: [Entry]
    /// The factories the plugin found but a test cannot reach, each with the reason.
    public let skipped: [Skipped]

    /// Creates the catalog of one module; generated code calls it, with one line per factory.
    ///
    /// - Parameters:
    ///   - module: The module whose containers the factories belong to.
    ///   - build: Adds each factory with one of ``Builder``'s `factory` methods, and each
    ///     unreachable one with ``Builder/skipped(_:access:reason:)``.
    public init(module: String, _ build: (inout Builder) -> Void) {
        self.init(name: module, build)
    }

    /// Creates the catalog of every module a test target depends on; generated code
    /// calls it, adding each module's factories in a ``Builder/module(_:_:)`` block.
    ///
    /// - Parameters:
    ///   - testTarget: The test target the catalog was made for.
    ///   - build: Adds each module's factories.
    public init(testTarget: String, _ build: (inout Builder) -> Void) {
        self.init(name: testTarget, build)
    }

    private init(name: String, _ build: (inout Builder) -> Void) {
        var builder = Builder(module: name)
        build(&builder)
        module = name
        entries = builder.entries
        skipped = builder.skipped
        var modules: [String] = []
        for module in entries.map(\.module) + skipped.map(\.module) where !modules.contains(module) {
            modules.append(module)
        }
        self.modules = modules
    }

    /// The module that declares the factory named `name` (`Container.api`), if the
    /// catalog lists it.
    func module(declaring name: String) -> String? {
        entries.first { $0.name == name }?.module ?? skipped.first { $0.name == name }?.module
    }

    /// The access level a factory is declared with, as the symbol graph gives it.
    public enum AccessLevel: String, Sendable, Hashable {
        /// `private`: only its own declaration's scope can read it.
        case `private`
        /// `fileprivate`: only its own file can read it.
        case `fileprivate`
        /// `internal`: its module, and test targets that `@testable import` it.
        case `internal`
        /// `package`: every module of its package.
        case `package`
        /// `public`.
        case `public`
        /// `open`.
        case open
    }

    /// One factory of the catalog.
    public struct Entry: Sendable {
        /// Which of the four factory types the property returns.
        public enum Kind: Sendable, Hashable {
            /// `Factory<T>`.
            case factory
            /// `ParameterFactory<P, T>`: validated with a sample parameter.
            case parameterFactory
            /// `AsyncFactory<T>`: awaited, within the validation's time limit.
            case asyncFactory
            /// `AsyncParameterFactory<P, T>`: awaited with a sample parameter.
            case asyncParameterFactory
        }

        /// The module that declares the property.
        public let module: String
        /// The container type and property, as `Container.api`.
        public let name: String
        /// Which factory type the property returns.
        public let kind: Kind
        /// The property's access level.
        public let access: AccessLevel
        /// Whether the property is declared on the main actor (its key path is made there).
        public let isMainActor: Bool
        /// Reads the factory (on the caller's thread, or on the main actor for a
        /// main-actor property) and turns it into something validation resolves.
        let prepare: @Sendable (CatalogContext) -> CatalogPreparation
    }

    /// A factory the catalog lists but validation cannot reach.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// The module that declares the property.
        public let module: String
        /// The container type and property, as `Container.secret`.
        public let name: String
        /// The property's access level.
        public let access: AccessLevel
        /// Why it is not validated.
        public let reason: String

        /// `name (access): reason`.
        public var description: String {
            "\(name) (\(access.rawValue)): \(reason)"
        }
    }

    /// A factory of the catalog that validation did not resolve, and why.
    public struct Unchecked: Sendable, Hashable, CustomStringConvertible {
        /// The module that declares the property.
        public let module: String
        /// The container type and property, as `Container.pager`.
        public let name: String
        /// Why it was not resolved, and what to add so that it is.
        public let reason: String

        /// `name: reason`.
        public var description: String {
            "\(name): \(reason)"
        }
    }
}

/// What validation is given to prepare each entry with.
struct CatalogContext: Sendable {
    let samples: ParameterSamples
    /// How long each async factory may take, in seconds.
    let asyncTimeLimit: Double
}

/// An entry, ready for validation, or the reason it cannot be.
enum CatalogPreparation: Sendable {
    /// Resolve `item` on a validation thread, or on the main thread when
    /// `onMainActor` (its closure is isolated to the main actor).
    case item(ValidationItem, container: any ManagedContainer, onMainActor: Bool)
    /// The property is main-actor isolated: `make` reads it on the main actor.
    case mainActor(container: any ManagedContainer, make: @MainActor @Sendable () -> CatalogItems.Made)
    /// Not validated: why, and what to supply.
    case unchecked(String)
}
