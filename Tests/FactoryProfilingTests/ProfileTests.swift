import FactoryProfiling
import FactoryScopes
import FactoryTestSupport
import Foundation
import Testing

#if SwiftConcurrency

final class Inner: Sendable {}
final class Outer: Sendable {
    let inner: Inner
    init(inner: Inner) { self.inner = inner }
}

/// A graph with known sleeps: `outer` sleeps 10 ms and resolves `inner`, which sleeps 20 ms.
final class ProfiledContainer: ManagedContainer {
    let manager = ContainerManager()
    let failing = Counter()

    var outer: Factory<Outer> {
        self {
            pause(milliseconds: 10)
            return Outer(inner: self.inner())
        }.cached
    }
    var inner: Factory<Inner> {
        self {
            pause(milliseconds: 20)
            return Inner()
        }.cached
    }
    var fresh: Factory<Inner> { self { Inner() } }
    let contendedStarted = Signal()
    /// Raises `contendedStarted`, then returns once another thread waits for this build.
    var contended: Factory<Inner> {
        self {
            self.contendedStarted.raise()
            _ = self.buildWaitersReach(1)
            return Inner()
        }.cached
    }
    /// Resolves `contended` once another thread builds it.
    var holder: Factory<Outer> {
        self {
            _ = self.contendedStarted.wait()
            return Outer(inner: self.contended())
        }
    }
    /// Sleeps 20 ms, then resolves `leaf`.
    var connection: AsyncFactory<Outer> {
        self {
            try await Task.sleep(nanoseconds: 20_000_000)
            return Outer(inner: try await self.leaf())
        }.cached
    }
    var leaf: AsyncFactory<Inner> { self { Inner() }.cached }
    /// Returns once another task waits for this build.
    var asyncContended: AsyncFactory<Inner> {
        self {
            _ = await (try? waitFor("a task to join the build") { self.manager.buildWaiters == 1 }) != nil
            return Inner()
        }.cached
    }
    var broken: AsyncFactory<Inner> { self { throw ConnectionFailed() } }
}

private let millisecond: UInt64 = 1_000_000

private struct ConnectionFailed: Error {}

@Suite struct ProfileTests {
    @Test func buildsNestAndTheirTimesAddUp() throws {
        let container = ProfiledContainer()
        let profile = FactoryProfile.record(containers: [container]) { _ = container.outer() }
        try #require(profile.builds.count == 2)
        let (outer, inner) = (profile.builds[0], profile.builds[1])
        #expect(outer.key == container.outer.registration.key && inner.key == container.inner.registration.key)
        #expect(outer.parent == nil && inner.parent == 0 && outer.children == [1])
        #expect(inner.duration >= 20 * millisecond && outer.duration >= inner.duration + 10 * millisecond)
        #expect(inner.start >= outer.start && inner.end <= outer.end)
        #expect(outer.selfTime >= 10 * millisecond && outer.selfTime == outer.duration - inner.duration)
        #expect(inner.selfTime == inner.duration)
        #expect(outer.scope == "cached" && outer.kind == .factory && outer.source == .definition)
        #expect(outer.thread == inner.thread && outer.start >= profile.start && outer.end <= profile.end)
    }

    @Test func theSummaryPutsTheLargestSelfTimeFirstAndCountsBuildsNotHits() throws {
        let container = ProfiledContainer()
        container.fresh.register { Inner() }
        let profile = FactoryProfile.record(containers: [container]) {
            for _ in 0..<3 {
                _ = container.outer()
                _ = container.fresh()
            }
        }
        // outer and inner once (then hits), fresh three times.
        #expect(profile.builds.map(\.key.name.description) == ["outer", "inner", "fresh", "fresh", "fresh"])
        #expect(profile.builds.filter { $0.key.name.description == "fresh" }.allSatisfy { $0.source == .registration })
        let lines = profile.summary.split(separator: Character("\n")).dropFirst(2)
        let selfTimes = Dictionary(grouping: profile.builds, by: \.key).mapValues { $0.reduce(0) { $0 + $1.selfTime } }
        let order = selfTimes.sorted { $0.value > $1.value }.map(\.key.description)
        #expect(lines.map { String($0.split(separator: Character(" ")).last!) } == order)
        let fresh = try #require(lines.first { $0.hasSuffix("fresh<Inner>") })
        #expect(fresh.split(separator: Character(" ")).first == "3")
        #expect(profile.summary.hasPrefix("5 builds of 3 factories"))
        // In start order, one thread here: each build after the one before, or inside it.
        for (earlier, later) in zip(profile.builds, profile.builds.dropFirst()) {
            #expect(later.start >= earlier.end || (later.parent == earlier.id && later.end <= earlier.end))
        }
        #expect(profile.description == profile.summary)
        let indents = profile.tree.split(separator: Character("\n")).map { line -> Int in
            line.count - line.drop(while: { $0 == " " }).count
        }
        #expect(indents == [0, 4, 0, 0, 0])
    }

    @Test func aBuildAnotherThreadWaitedForShowsTheWaitAndTheWaitersTime() throws {
        let container = ProfiledContainer()
        let profile = FactoryProfile.record(containers: [container]) {
            runOnThreads(2) { index in
                if index == 0 { _ = container.contended() } else { _ = container.holder() }
            }
        }
        try #require(profile.builds.count == 2)
        let build = try #require(profile.builds.first { $0.key == container.contended.registration.key })
        let holder = try #require(profile.builds.first { $0.key == container.holder.registration.key })
        try #require(build.waits.count == 1)
        let wait = build.waits[0]
        #expect(wait.thread == holder.thread && wait.thread != build.thread && !wait.isTask)
        // The wait overlaps the build: it began before the build ended and ended after it began.
        #expect(wait.start <= build.end && wait.end >= build.start && wait.end >= wait.start)
        // Waiting inside the holder's closure is not the holder's own time; the build it waited for is no child.
        #expect(build.parent == nil && holder.children.isEmpty)
        #expect(holder.waiting == wait.duration && holder.selfTime == holder.duration - wait.duration)
        #expect(profile.tree.contains("waited for by thread \(wait.thread)"))
    }

    @Test func asyncBuildsTheirNestingTheirWaitersAndTheirErrors() async throws {
        let container = ProfiledContainer()
        let profile = try await FactoryProfile.record(containers: [container]) {
            async let first = container.asyncContended()
            async let second = container.asyncContended()
            _ = try await (first, second)
            _ = try await container.connection()
            _ = try await container.leaf()  // a hit: no build
            await #expect(throws: ConnectionFailed.self) { try await container.broken() }
        }
        #expect(profile.builds.map(\.key.name.description) == ["asyncContended", "connection", "leaf", "broken"])
        let (contended, connection, leaf, broken) = (profile.builds[0], profile.builds[1], profile.builds[2], profile.builds[3])
        #expect(contended.kind == .asyncFactory && contended.waits.count == 1 && contended.waits.first?.isTask == true)
        #expect(leaf.parent == connection.id && connection.children == [leaf.id] && contended.parent == nil)
        #expect(connection.duration >= 20 * millisecond && leaf.start >= connection.start && leaf.end <= connection.end)
        #expect(connection.error == nil && broken.error == String(describing: ConnectionFailed()))
        #expect(profile.tree.contains("threw ConnectionFailed"))
        // In the Chrome trace, an async build and the one inside it share their outermost async build's track.
        let json = try JSONSerialization.jsonObject(with: Data(profile.chromeTrace().utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        func track(_ build: FactoryProfile.Build) -> Int? {
            events.first { $0["name"] as? String == build.key.description && $0["cat"] as? String == "build" }?["tid"] as? Int
        }
        let name = events.first { $0["ph"] as? String == "M" && $0["tid"] as? Int == track(connection) }
        #expect(track(leaf) == track(connection) && track(leaf) != nil)
        #expect((name?["args"] as? [String: Any])?["name"] as? String == "tasks: \(connection.key)")
    }

    @Test func theChromeTraceHasTheRequiredFieldsAndNestsPerTrack() throws {
        let container = ProfiledContainer()
        let profile = FactoryProfile.record(containers: [container]) {
            _ = container.outer()
            runOnThreads(2) { _ in _ = container.contended() }
        }
        let json = try JSONSerialization.jsonObject(with: Data(profile.chromeTrace().utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == 4)  // outer, inner, contended, one wait
        for slice in slices {
            #expect(slice["name"] is String && slice["ts"] is Double && slice["dur"] is Double)
            #expect(slice["pid"] is Int && slice["tid"] is Int)
        }
        #expect(slices.contains { ($0["name"] as? String)?.hasPrefix("wait for ") == true && $0["cat"] as? String == "wait" })
        // On each track, two slices are disjoint or one holds the other.
        for (index, first) in slices.enumerated() {
            for second in slices[(index + 1)...] where first["tid"] as? Int == second["tid"] as? Int {
                let a = (first["ts"] as! Double, first["ts"] as! Double + (first["dur"] as! Double))
                let b = (second["ts"] as! Double, second["ts"] as! Double + (second["dur"] as! Double))
                #expect(a.1 <= b.0 || b.1 <= a.0 || (a.0 <= b.0 && b.1 <= a.1) || (b.0 <= a.0 && a.1 <= b.1))
            }
        }
        let names = events.filter { $0["ph"] as? String == "M" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names.count == Set(slices.compactMap { $0["tid"] as? Int }).count)
    }

    @Test func recordingsFromSeveralThreadsAtOnceSeeOnlyTheirContainers() {
        let profiles = Collector<(Int, FactoryProfile)>()
        runOnThreads(4) { index in
            let container = ProfiledContainer()
            let recording = FactoryProfile.start(containers: [container])
            for _ in 0...index { _ = container.fresh() }
            let profile = recording.stop()
            #expect(recording.stop().builds.count == profile.builds.count)  // stopping again returns it
            profiles.append((index, profile))
        }
        for index in 0..<4 {
            #expect(profiles.values.first { $0.0 == index }?.1.builds.count == index + 1)
        }
    }

    @Test func aRecordingLetGoOfStopsAndItsContainerResolvesAsBefore() {
        let container = ProfiledContainer()
        let profiled = ContainerManager.Flag.profile.rawValue
        do {
            let recording = FactoryProfile.start(containers: [container])
            #expect(container.manager.flags.value & profiled != 0)
            _ = recording
        }
        #expect(container.manager.flags.value & profiled == 0)
        let later = FactoryProfile.record(containers: [container]) { _ = container.fresh() }
        #expect(later.builds.count == 1)
    }

    @Test func recordingEveryContainerIncludesOnesMadeLaterAndEndsWithTheRecording() {
        let before = ProfiledContainer()
        var during: ProfiledContainer?
        let profile = FactoryProfile.record {
            _ = before.fresh()
            during = ProfiledContainer()
            _ = during?.fresh()
        }
        #expect(profile.builds.contains { $0.key == before.fresh.registration.key })
        #expect(profile.builds.filter { $0.key == before.fresh.registration.key }.count >= 2)
        let after = FactoryProfile.record(containers: [before]) {}
        _ = before.fresh()
        #expect(after.builds.isEmpty)
        _ = during
    }
}
#endif
