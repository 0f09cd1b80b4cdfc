import FactoryWrappers
import SwiftUI

/// A view whose model is an `ObservableObject` resolved with `@InjectedObject`.
public struct ContentView: View {
    @InjectedObject(\.contentViewModel) var model

    /// Creates the view; SwiftUI resolves its model when it installs the view.
    public init() {}

    /// Creates the view with a model of the caller's, as a preview may.
    public init(model: ContentViewModel) {
        _model = InjectedObject(model)
    }

    /// The greeting, and a field that edits the name through `$model.name`.
    public var body: some View {
        Text(model.message)
        TextField("Name", text: $model.name)
    }
}

/// A view whose model is an `@Observable` object resolved with `@InjectedObservable`.
public struct ProfileView: View {
    @InjectedObservable(\.profileModel) var model

    /// Creates the view; its model is resolved on the first read.
    public init() {}

    /// The greeting, and a field that edits the nickname through `$model.nickname`.
    public var body: some View {
        Text(model.message)
        TextField("Nickname", text: $model.nickname)
    }
}
