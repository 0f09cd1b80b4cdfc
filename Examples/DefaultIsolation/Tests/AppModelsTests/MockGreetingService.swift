import AppModels

/// A greeting service for tests: the greeting names the mock, so a test can
/// tell whose registration it sees.
final class MockGreetingService: GreetingService {
    let label: String

    init(_ label: String = "mock") {
        self.label = label
    }

    func greeting(for name: String) -> String {
        "\(label) greets \(name)"
    }
}
