import FactoryProfiling
import FactoryWrappers
import Testing
import os

/// On Apple platforms a FactoryProfile recording also makes each build an `OSSignposter` interval, so Instruments
/// shows them; here against the stand-in `os` module, which counts them.
@Suite struct SignpostTests {
    final class Service: Sendable {}
    final class Signposted: SharedContainer {
        static let shared = Signposted()
        let manager = ContainerManager()
        var first: Factory<Service> {
            self {
                _ = self.second()
                return Service()
            }.cached
        }
        var second: Factory<Service> { self { Service() } }
    }

    @Test func eachRecordedBuildIsAnInterval() {
        let container = Signposted()
        let before = OSSignposter.standInRecord
        let profile = FactoryProfile.record(containers: [container]) { _ = container.first() }
        let after = OSSignposter.standInRecord
        #expect(profile.builds.count == 2)
        // Other suites may record at the same time: at least this profile's intervals, each begun and ended.
        #expect(after.begun - before.begun >= 2 && after.ended - before.ended >= 2)
        let messages = after.messages.dropFirst(before.messages.count)
        #expect(messages.contains(container.first.registration.key.description))
        #expect(messages.contains(container.second.registration.key.description))
    }
}
