import FactoryWrappers

// The app's factories.
//
// One annotation is needed, and Factory needs the same one: `@MainActor` on
// the extension. The module's default isolation does not reach members of an
// extension of `Container`, because `Container` conforms to a protocol that
// refines `Sendable` (`SharedContainer` -> `ManagedContainer: AnyObject,
// Sendable`, in Factory as here), and the compiler leaves extensions of such
// types nonisolated in a main-actor-by-default module. Without it,
// `self { ViewModel() }` fails with "call to main actor-isolated initializer
// 'init()' in a synchronous nonisolated context". Nothing else is annotated:
// each closure below inherits the main actor from its property and may call
// the main-actor initializers of this module. Resolving one of these factories
// off the main actor stops the program with a message naming it; from other
// contexts use `resolveOnMainActor()`.
@MainActor
extension Container {
    /// The main screen's model: a new one per resolution.
    public var viewModel: Factory<ViewModel> {
        self { ViewModel() }
    }

    /// The greeting service, behind its protocol; tests and the demo register others.
    public var greetingService: Factory<any GreetingService> {
        self { LiveGreetingService() }
    }

    /// The signed-in session: one for the whole process.
    public var session: Factory<SessionStore> {
        self { SessionStore() }.singleton
    }

    /// The count formatter: one per container, until its cache is reset.
    public var countFormatter: Factory<CountFormatter> {
        self { CountFormatter() }.cached
    }

    /// A list screen's model, for a list name and item count.
    public var itemList: ParameterFactory<(name: String, count: Int), ItemListViewModel> {
        self { ItemListViewModel(listName: $0.name, count: $0.count) }
    }
}

// An extension without the annotation is nonisolated (see above): the place for
// factories of `nonisolated` types, which resolve from any thread.
extension Container {
    /// The build's description; resolvable on and off the main actor.
    public var buildInfo: Factory<BuildInfo> {
        self { BuildInfo(version: "1.0") }
    }
}
