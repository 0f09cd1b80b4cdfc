import FactoryWrappers
import SwiftUI

// The bodies of an app's previews. A `#Preview { ... }` body is a view builder, as
// a view's `body` is: each statement must be a view. The stand-ins have no
// `#Preview` macro (it needs the compiler plugin that ships with Xcode), so each
// preview here is the same statements in a view's body. Factory 3's documented
// forms:
//
//     #Preview { Container.shared.greeting.preview { MockGreeting("preview") }; ContentView() }
//     #Preview { Container.shared { $0.greeting { MockGreeting("transform") } }; ContentView() }
//     #Preview { Container.shared.greeting { MockGreeting("sugar") }; ContentView() }

/// `Container.shared.greeting.preview { ... }` as a statement.
public struct FactoryPreviewPreview: View {
    /// Creates the preview.
    public init() {}

    /// The preview's body.
    public var body: some View {
        Container.shared.greeting.preview { MockGreeting("preview") }
        ContentView()
    }
}

/// The container transform, `Container.shared { $0.greeting { ... } }`, as a statement.
public struct ContainerTransformPreview: View {
    /// Creates the preview.
    public init() {}

    /// The preview's body.
    public var body: some View {
        Container.shared { $0.greeting { MockGreeting("transform") } }
        ContentView()
    }
}

/// Factory 3.2's registration sugar, `Container.shared.greeting { ... }`, as a statement.
public struct RegistrationSugarPreview: View {
    /// Creates the preview.
    public init() {}

    /// The preview's body.
    public var body: some View {
        Container.shared.greeting { MockGreeting("sugar") }
        ProfileView()
    }
}

/// A parameter factory's `preview` and registration sugar, as statements.
public struct ParameterFactoryPreview: View {
    /// Creates the preview.
    public init() {}

    /// The preview's body.
    public var body: some View {
        Container.shared.greetingFor.preview { "preview greets \($0)" }
        Text(Container.shared.greetingFor("Grace"))
        Container.shared.greetingFor { "sugar greets \($0)" }
        Text(Container.shared.greetingFor("Alan"))
    }
}

/// The container forms of `preview`, which Factory 3.2 deprecates for the transform.
@available(*, deprecated, message: "shows the deprecated container forms")
public struct DeprecatedContainerPreview: View {
    let onTheType: Bool

    /// Creates the preview of `Container.preview { ... }`, or of
    /// `Container.shared.preview { ... }` when `onTheType` is false.
    public init(onTheType: Bool) {
        self.onTheType = onTheType
    }

    /// The preview's body.
    public var body: some View {
        if onTheType {
            Container.preview { $0.greeting { MockGreeting("static preview") } }
        } else {
            Container.shared.preview { $0.greeting { MockGreeting("instance preview") } }
        }
        ContentView()
    }
}

/// A view given its model directly, as a preview may, instead of resolving it.
public struct GivenModelPreview: View {
    let model: ContentViewModel

    /// Creates the preview with `model`.
    public init(model: ContentViewModel) {
        self.model = model
    }

    /// The preview's body.
    public var body: some View {
        ContentView(model: model)
    }
}
