import FactoryScopes
import FactoryTestSupport
import Testing

final class TaggedContainer: SharedContainer {
    static let shared = TaggedContainer()
    let manager = ContainerManager()
    var tagged: Factory<Thing> { self { Thing(id: 0) }.cached }
}

@Suite struct PushPopConsistencyTests {
    /// `push()` and `pop()` save and restore registrations and cached instances
    /// together, atomically with respect to `register`: after the dust settles,
    /// the cached instance is always one the current registration built.
    @Test func pushAndPopNeverLeaveAnInstanceOfAnotherRegistrationCached() {
        for round in 0..<30 {
            let container = TaggedContainer()
            let finished = finishes(2) { index in
                for step in 1...200 {
                    if index == 0 {
                        container.manager.push()
                        _ = container.tagged()
                        container.manager.pop()
                    } else {
                        let tag = step
                        container.tagged.register { Thing(id: tag) }
                        _ = container.tagged()
                    }
                }
            }
            #expect(finished, "round \(round): a deadlock")
            let cached = container.tagged()
            container.tagged.reset(.scope)
            let rebuilt = container.tagged()
            #expect(cached.id == rebuilt.id, "round \(round): cached #\(cached.id), registration builds #\(rebuilt.id)")
        }
    }
}
