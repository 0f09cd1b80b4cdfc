import FactoryTesting
import Synchronization
import Testing

@testable import ServerApp

/// What one `/whoami` request asks of the library, counted from the container's
/// trace: the figures the README gives next to the load run's.
@Suite struct OneRequestTests {
    @Test func oneWhoAmIRequestResolvesNineTimesAndBuildsTwoInstances() async throws {
        // A running server's singletons exist already.
        _ = Container.shared.requestCounter()
        _ = Container.shared.inFlight()

        // The request's container, as RequestContainerMiddleware sets it up.
        let container = Container()
        container.manager.isPerRequest = true
        let lines = Mutex<[String]>([])
        container.manager.logger = { line in lines.withLock { $0.append(line) } }
        container.manager.trace = true
        _ = container.requestCounter().next()
        container.currentUser.register { User(id: "ann") }
        container.requestID.register { "cost-1" }
        let answer = try await Container.$shared.withValue(container) { try await whoAmI(delay: 0, together: 1) }
        try await container.manager.shutdown()
        #expect(answer.requestID == "cost-1")

        // `<depth>: Container.<name><<Type>> = <F|R|C>:<address> <Type>`: built by the
        // factory's closure, read from a registration, or a cache hit.
        let trace = lines.withLock { $0 }
        func resolutions(_ how: String) -> [String] {
            trace.filter { $0.contains(" = \(how):") }.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        }
        #expect(trace.count == 9, "\(trace.joined(separator: "\n"))")
        #expect(resolutions("F") == ["Container.session<RequestSession>", "Container.greeter<Greeter>"])
        #expect(resolutions("R") == ["Container.currentUser<User>", "Container.requestID<String>"])
        #expect(
            resolutions("C") == [
                "Container.requestCounter<RequestCounter>", "Container.requestCounter<RequestCounter>",
                "Container.inFlight<InFlightGauge>", "Container.session<RequestSession>", "Container.session<RequestSession>",
            ])
        #expect(ShutdownJournal.shared.entries.contains("session cost-1"))
    }
}
