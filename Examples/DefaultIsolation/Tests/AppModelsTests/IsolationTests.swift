import AppModels
import FactoryTesting
import Testing

// Swift Testing runs these cases at the same time. Each registers its own mock
// and signs its own user in (one registers nothing), then waits until every case
// has done so: with the `.container` trait, every case still sees only what it
// registered, and the process's own `Container.shared` sees none of it.

@Suite(.container)
struct RegistrationsDoNotLeakTests {
    nonisolated static let users: [String?] = ["ann", "bob", "cy", "dee", nil]
    static let everyoneRegistered = Rendezvous(cases: users.count)

    @Test(arguments: users)
    func eachTestSeesOnlyItsOwnRegistrations(user: String?) async throws {
        if let user {
            Container.shared.greetingService.register { MockGreetingService(user) }
            Container.shared.session().signIn(user)
        }
        let arrived = await Self.everyoneRegistered.arrive()
        #expect(arrived == Self.users.count, "only \(arrived) of the cases were running at once")
        #expect(Container.shared.viewModel().title == user.map { "\($0) greets \($0)" } ?? "Hello, guest!")
        // A detached task does not inherit the test's container: it sees the process's own.
        let processTitle = await Task.detached { @MainActor in Container.shared.viewModel().title }.value
        #expect(processTitle == "Hello, guest!")
    }
}

/// Holds each case until every case has arrived, so that all of them check while
/// the others' registrations exist. Main-actor code (this module's default), like
/// the tests, so it needs no lock. A case gives up waiting after a minute, so a
/// runner that runs the cases one after another fails the test instead of hanging.
final class Rendezvous {
    private let cases: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var gaveUp = false

    init(cases: Int) {
        self.cases = cases
    }

    /// Waits until every case has arrived (or a minute passed); returns how many had.
    func arrive() async -> Int {
        arrived += 1
        if arrived == cases || gaveUp {
            release()
        } else {
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                gaveUp = true
                release()
            }
            await withCheckedContinuation { waiting.append($0) }
            watchdog.cancel()
        }
        return arrived
    }

    private func release() {
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
