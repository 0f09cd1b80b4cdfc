import FactoryScopes
import FactoryTestSupport
import Testing

// `manager.trace` for asynchronous factories: one line per resolution, as for
// synchronous ones, with the resolutions an async closure makes (async or not)
// one level deeper, logged when the outermost resolution ends.

final class AsyncTraceContainer: ManagedContainer {
    let manager = ContainerManager()
    let lines = Collector<String>()
    /// How many other resolutions the root's build waits for to join it.
    let rootJoiners: Int
    var leaf: AsyncFactory<TraceLeaf> { self { TraceLeaf() } }
    var dependency: Factory<TraceDependency> { self { TraceDependency() } }
    var root: AsyncFactory<TraceRoot> {
        self {
            let joiners = self.rootJoiners
            try await waitFor("\(joiners) tasks to join the root's build") { self.manager.buildWaiters >= joiners }
            return TraceRoot(leaf: try await self.leaf(), dependency: self.dependency())
        }.cached
    }
    var failing: AsyncFactory<TraceLeaf> { self { throw TraceFailure() } }

    init(rootJoiners: Int = 0) {
        self.rootJoiners = rootJoiners
        manager.trace = true
        manager.logger = { [lines] in lines.append($0) }
    }
}

final class TraceLeaf: Sendable {}
final class TraceDependency: Sendable {}
final class TraceRoot: Sendable {
    let leaf: TraceLeaf
    let dependency: TraceDependency
    init(leaf: TraceLeaf, dependency: TraceDependency) {
        self.leaf = leaf
        self.dependency = dependency
    }
}
struct TraceFailure: Error {}

/// The address a trace line gives for `object`.
private func address(_ object: AnyObject) -> String {
    String(UInt(bitPattern: ObjectIdentifier(object)))
}

@Suite struct AsyncTraceTests {
    @Test func anAsyncCycleIsTracedWithWhatItsClosureResolves() async throws {
        let container = AsyncTraceContainer()
        let root = try await container.root()
        #expect(
            container.lines.values == [
                "0: AsyncTraceContainer.root<TraceRoot> = F:\(address(root)) TraceRoot",
                "1:     AsyncTraceContainer.leaf<TraceLeaf> = F:\(address(root.leaf)) TraceLeaf",
                "1:     AsyncTraceContainer.dependency<TraceDependency> = F:\(address(root.dependency)) TraceDependency",
            ])
    }

    @Test func aCachedOrRegisteredAsyncResolutionSaysSo() async throws {
        let container = AsyncTraceContainer()
        let root = try await container.root()
        #expect(try await container.root() === root)
        let mock = TraceLeaf()
        container.leaf.register { mock }
        #expect(try await container.leaf() === mock)
        #expect(
            Array(container.lines.values.dropFirst(3)) == [
                "0: AsyncTraceContainer.root<TraceRoot> = C:\(address(root)) TraceRoot",
                "0: AsyncTraceContainer.leaf<TraceLeaf> = R:\(address(mock)) TraceLeaf",
            ])
    }

    @Test func aResolutionThatThrowsIsTraced() async {
        let container = AsyncTraceContainer()
        await #expect(throws: TraceFailure.self) { try await container.failing() }
        #expect(container.lines.values == ["0: AsyncTraceContainer.failing<TraceLeaf> = threw TraceFailure"])
    }

    @Test func withoutTraceNothingIsLogged() async throws {
        let container = AsyncTraceContainer()
        container.manager.trace = false
        _ = try await container.root()
        #expect(container.lines.values.isEmpty)
    }

    /// Tasks that resolve a cached factory at once each trace their own cycle:
    /// one builds (its cycle holds what the build resolved), the others get the
    /// joined instance. The build waits until the seven others joined it.
    @Test func tasksResolvingAtOnceEachTraceTheirCycle() async throws {
        let container = AsyncTraceContainer(rootJoiners: 7)
        let roots = try await withAsyncWatchdog("eight tasks did not get the root") {
            try await withThrowingTaskGroup(of: TraceRoot.self) { group in
                for _ in 0..<8 { group.addTask { try await container.root() } }
                return try await group.reduce(into: [TraceRoot]()) { $0.append($1) }
            }
        }
        try #require(roots.count == 8)
        let root = roots[0]
        #expect(roots.allSatisfy { $0 === root })
        let lines = container.lines.values
        let rootLine = "0: AsyncTraceContainer.root<TraceRoot> = "
        #expect(lines.filter { $0 == rootLine + "F:\(address(root)) TraceRoot" }.count == 1)
        #expect(lines.filter { $0 == rootLine + "C:\(address(root)) TraceRoot" }.count == 7)
        #expect(lines.filter { $0.hasPrefix("1:     AsyncTraceContainer.leaf<TraceLeaf> = F:") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("1:     AsyncTraceContainer.dependency<TraceDependency> = F:") }.count == 1)
        #expect(lines.count == 10)
    }
}
