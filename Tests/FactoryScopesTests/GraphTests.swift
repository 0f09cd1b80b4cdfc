import FactoryScopes
import FactoryTestSupport
import Testing

@Suite struct GraphTests {
    @Test func oneInstancePerResolutionCycle() {
        let container = ScopeContainer()
        let consumer = container.consumer()
        #expect(consumer.ids === consumer.values)
        let next = container.consumer()
        #expect(next.ids !== consumer.ids)
    }

    @Test func separateTopLevelResolutionsAreSeparateCycles() {
        let container = ScopeContainer()
        #expect(container.ids() !== container.values())
    }

    /// Eight threads run 200 cycles each. Their first cycles are under way at once:
    /// each has its graph instance and waits, inside its closure, until all eight
    /// do, then resolves the graph factory again. No cycle sees another's instance.
    @Test func concurrentCyclesNeverShare() {
        let container = ScopeContainer()
        let together = Rendezvous(8)
        let overlaps = Overlaps()
        let meeting = Factory<ProtocolConsumer>(container, key: "meetingConsumer") {
            let ids = container.ids()
            overlaps.record("eight cycles under way at once", together.arrive())
            return ProtocolConsumer(ids: ids, values: container.values())
        }
        let consumers = Collector<ProtocolConsumer>()
        runOnThreads(8) { _ in
            consumers.append(meeting())
            for _ in 1..<200 { consumers.append(container.consumer()) }
        }
        overlaps.expect(8)
        let all = consumers.values
        #expect(all.count == 1_600)
        #expect(all.allSatisfy { $0.ids === $0.values })
        #expect(Set(all.map { ObjectIdentifier($0.ids) }).count == all.count)
    }
}

/// Graph factories that differ in one part of their key each: name, value type,
/// parameter value and container.
private final class GraphKeys: ManagedContainer {
    let manager = ContainerManager()
    let sibling: GraphKeys?

    init(sibling: GraphKeys? = nil) { self.sibling = sibling }

    var left: Factory<Thing> { self { Thing(id: 1) }.graph }
    var right: Factory<Thing> { self { Thing(id: 2) }.graph }
    var common: Factory<CommonService> { self { CommonService() }.graph }
    var numbered: ParameterFactory<Int, Thing> { self { Thing(id: $0) }.graph.scopeOnParameters }

    /// One cycle that resolves each of them twice, and the sibling's `left` twice.
    var cycle: Factory<[AnyObject]> {
        self {
            [
                self.left(), self.left(), self.right(), self.right(), self.common(), self.common(),
                self.numbered(7), self.numbered(7), self.numbered(8), self.numbered(8),
                self.sibling!.left(), self.sibling!.left(),
            ]
        }
    }
}

extension GraphTests {
    @Test func aCycleKeepsOneInstancePerFactoryParameterAndContainer() {
        let container = GraphKeys(sibling: GraphKeys())
        let all = container.cycle()
        let pairs = stride(from: 0, to: all.count, by: 2).map { (all[$0], all[$0 + 1]) }
        #expect(pairs.allSatisfy { $0.0 === $0.1 }, "each factory resolved twice in one cycle is one instance")
        #expect(Set(pairs.map { ObjectIdentifier($0.0) }).count == pairs.count, "no two keys share an instance")
        #expect((all[6] as? Thing)?.id == 7 && (all[8] as? Thing)?.id == 8)
    }
}

/// A graph factory keyed by a parameter whose `==` resolves further graph
/// factories in the same cycle, which grows the cycle's list of instances while
/// the lookup compares against it.
private final class ReentrantGraph: ManagedContainer {
    static let shared = ReentrantGraph()
    let manager = ContainerManager()

    var filler: ParameterFactory<Int, Thing> { self { Thing(id: $0) }.graph.scopeOnParameters }
    var keyed: ParameterFactory<ReentrantKey, Thing> { self { Thing(id: $0.value) }.graph.scopeOnParameters }
    var cycle: Factory<[Thing]> { self { [self.keyed(ReentrantKey(value: 1)), self.keyed(ReentrantKey(value: 1))] } }
}

private struct ReentrantKey: Hashable, Sendable {
    let value: Int

    static func == (lhs: ReentrantKey, rhs: ReentrantKey) -> Bool {
        for index in 100..<164 { _ = ReentrantGraph.shared.filler(index) }
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension GraphTests {
    @Test func aParameterWhoseEqualityResolvesStillFindsItsInstance() {
        let pair = ReentrantGraph.shared.cycle()
        #expect(pair[0] === pair[1])
        #expect(pair[0].id == 1)
    }
}
