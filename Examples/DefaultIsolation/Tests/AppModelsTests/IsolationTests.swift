import AppModels
import FactoryTesting
import Testing

// Swift Testing runs these cases at the same time. Each registers its own mock
// and signs its own user in, then waits while the others do the same: with the
// `.container` trait, every case still sees only what it registered.

@Suite(.container)
struct RegistrationsDoNotLeakTests {
    @Test(arguments: ["ann", "bob", "cy", "dee"])
    func eachTestSeesOnlyItsOwnRegistrations(user: String) async throws {
        Container.shared.greetingService.register { MockGreetingService(user) }
        Container.shared.session().signIn(user)
        try await Task.sleep(for: .milliseconds(100))
        #expect(Container.shared.viewModel().title == "\(user) greets \(user)")
    }

    @Test func aTestThatRegistersNothingSeesNoneOfThem() async throws {
        try await Task.sleep(for: .milliseconds(100))
        #expect(Container.shared.viewModel().title == "Hello, guest!")
    }
}

// No trait: the process's own `Container.shared`, which the tests above never touch.
@Test func theProcessContainerKeepsNoneOfTheTestsRegistrations() async throws {
    try await Task.sleep(for: .milliseconds(100))
    #expect(Container.shared.viewModel().title == "Hello, guest!")
}
