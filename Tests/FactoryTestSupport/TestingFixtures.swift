import FactoryWrappers

// The services of Factory's "Xcode Unit Tests" example (seeds/factory-1.x-readme-late.md),
// in 2.x form, for tests that run that example as written.

/// The service the example mocks.
public protocol MyServiceType: Sendable {
    /// Which implementation this is.
    var text: String { get }
}

/// The real service.
public struct MyService: MyServiceType {
    /// Always `"live"`.
    public let text = "live"
    /// Creates the real service.
    public init() {}
}

/// The example's mock.
public struct MockService: MyServiceType {
    /// Tells mocks apart; `"mock"` unless given.
    public let text: String
    /// Creates a mock labelled `text`.
    public init(_ text: String = "mock") { self.text = text }
}

/// A view model that is loaded when its service is a mock.
public struct SomeViewModel: Sendable {
    /// The service it was built with.
    public let service: any MyServiceType
    /// Whether the service is a mock, as the example expects under test.
    public var isLoaded: Bool { service.text != "live" }
    /// Creates a view model over `service`.
    public init(service: any MyServiceType) { self.service = service }
}

extension Container {
    /// The example's service factory.
    public var myServiceType: Factory<any MyServiceType> { self { MyService() } }
    /// The example's view model, built from `myServiceType`.
    public var someViewModel: Factory<SomeViewModel> { self { SomeViewModel(service: self.myServiceType()) } }

    /// The example's `Container.setupMocks()`: mocks every test of the class starts with.
    public static func setupMocks() {
        shared.myServiceType.register { MockService("setup") }
    }
}
