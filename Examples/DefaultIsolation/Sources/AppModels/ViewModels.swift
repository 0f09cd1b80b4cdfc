import FactoryWrappers

/// The main screen's model. Implicitly `@MainActor`, like every type of this module.
public final class ViewModel {
    /// Who is signed in: the `session` singleton.
    @Injected(\.session) public var session
    @Injected(\.greetingService) private var greetings

    /// Creates the model; its `@Injected` properties resolve from `Container.shared` now.
    public init() {}

    /// The screen's title, from the injected greeting service.
    public var title: String {
        greetings.greeting(for: session.userName ?? "guest")
    }
}

/// A model made by a `ParameterFactory`: the list's name and size are its parameter.
public final class ItemListViewModel {
    /// The list's name.
    public let listName: String
    /// How many items the list holds.
    public let count: Int

    @Injected(\.countFormatter) private var formatter

    /// Creates the model for the list named `listName`, holding `count` items.
    public init(listName: String, count: Int) {
        self.listName = listName
        self.count = count
    }

    /// What the list shows, e.g. `3 items in Inbox`.
    public var summary: String {
        "\(formatter.format(count)) in \(listName)"
    }
}
