import FactoryWrappers
import SwiftUI

/// The model of ``ContentView``: an `ObservableObject`, as apps wrote before Observation.
@MainActor
public final class ContentViewModel: ObservableObject {
    @Injected(\.greeting) private var greeting

    /// The name to greet; the view's text field edits it.
    @Published public var name = "World"

    /// The greeting for ``name``.
    public var message: String { greeting.greet(name) }

    /// Creates the model, resolving its greeting.
    public init() {}
}

/// The model of ``ProfileView``: an `@Observable` model.
@MainActor @Observable
public final class ProfileModel {
    /// How many `ProfileModel`s have been made: a test counts resolutions with it.
    public static var made = 0

    @ObservationIgnored @Injected(\.greeting) private var greeting

    /// The nickname to greet; the view's text field edits it.
    public var nickname = "Ada"

    /// The greeting for ``nickname``.
    public var message: String { greeting.greet(nickname) }

    /// Creates the model, resolving its greeting.
    public init() {
        Self.made += 1
    }
}

extension Container {
    /// The content view's model.
    @MainActor public var contentViewModel: Factory<ContentViewModel> {
        self { ContentViewModel() }
    }

    /// The profile view's model.
    @MainActor public var profileModel: Factory<ProfileModel> {
        self { ProfileModel() }
    }
}
