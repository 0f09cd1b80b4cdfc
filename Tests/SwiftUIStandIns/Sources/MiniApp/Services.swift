import FactoryWrappers

/// What the app greets people with: a live implementation, and the mock that
/// previews register.
public protocol Greeting: Sendable {
    /// A greeting for `name`.
    func greet(_ name: String) -> String
}

struct LiveGreeting: Greeting {
    func greet(_ name: String) -> String { "Hello, \(name)" }
}

/// The mock a preview registers, labelled so a test sees which preview form ran.
public struct MockGreeting: Greeting {
    let label: String

    /// Creates a mock whose greetings start with `label`.
    public init(_ label: String) {
        self.label = label
    }

    /// A greeting for `name` that names the mock.
    public func greet(_ name: String) -> String { "\(label) greets \(name)" }
}

extension Container {
    /// The greeting service: live unless a preview or test registers a mock.
    public var greeting: Factory<any Greeting> {
        self { LiveGreeting() }
    }

    /// A greeting for a name: a parameter factory, for the parameter forms.
    public var greetingFor: ParameterFactory<String, String> {
        self { [unowned self] in greeting().greet($0) }
    }
}
