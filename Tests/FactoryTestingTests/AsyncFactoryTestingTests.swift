import FactoryTestSupport
import Testing

@testable import FactoryTesting

extension Container {
    var asyncGreeting: AsyncFactory<String> {
        self {
            try? await Task.sleep(nanoseconds: 1_000_000)
            return "live"
        }.cached
    }
}

@Suite(.container) struct AsyncFactoryTestingTests {
    @Test func aTestRegistersAnAsyncMockInItsOwnContainer() async throws {
        #expect(try await Container.shared.asyncGreeting() == "live")
        Container.shared.asyncGreeting.register { "mock" }
        #expect(try await Container.shared.asyncGreeting() == "mock")
    }

    @Test func anotherTestSeesTheDefinition() async throws {
        #expect(try await Container.shared.asyncGreeting() == "live")
    }

    @Test(.container(Mocks<Container> { $0.asyncGreeting.register { "from mocks" } }))
    func theMockSetsRegisterAsyncFactories() async throws {
        #expect(try await Container.shared.asyncGreeting() == "from mocks")
    }
}
