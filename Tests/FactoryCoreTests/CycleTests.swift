import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct CycleTests {
    #if EXIT_TESTS
    @Test func aCycleStopsTheProgramNamingTheWholeChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().circularA()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "circular dependency chain - Container.circularA<CircularA> > Container.circularB<CircularB> > "
                    + "Container.circularC<CircularC> > Container.circularA<CircularA>"))
    }
    #endif

    @Test func aFactoryResolvedTwiceInOneCycleIsNotACycle() {
        let container = Container()
        let pair = Factory<(Service, Service)>(container, key: "pair") { (container.service(), container.service()) }
        let (first, second) = pair()
        #expect(first !== second)
    }

    /// Four threads resolve at once, each its own factory: inside its closure a
    /// thread sees exactly its own frame (first with all four threads inside their
    /// closures together, so a chain shared between threads would hold the others'
    /// frames), and after each resolution its chain is empty.
    @Test func chainIsPerThreadAndClearedAfterEachResolution() {
        let container = Container()
        let names: [StaticString] = ["chain0", "chain1", "chain2", "chain3"]
        let insideTogether = Counter()
        let metOthers = Collector<Bool>()
        let inside = Collector<(thread: Int, chain: [String])>()
        let after = Collector<(thread: Int, chain: [String])>()
        runOnThreads(names.count) { thread in
            for round in 0..<200 {
                let own = Factory<Service>(container, key: names[thread]) {
                    if round == 0 {
                        insideTogether.increment()
                        metOthers.append(poll(upTo: overlapBound) { insideTogether.value == names.count })
                    }
                    inside.append((thread, ResolutionContext.current.chainKeys.map(\.description)))
                    return container.service()
                }
                _ = own()
                after.append((thread, ResolutionContext.current.chainKeys.map(\.description)))
            }
        }
        #expect(metOthers.values == Array(repeating: true, count: names.count), "the threads were never inside together")
        #expect(inside.values.count == names.count * 200)
        for (thread, chain) in inside.values {
            #expect(chain == ["Container.\(names[thread])<Service>"], "thread \(thread) saw another thread's chain")
        }
        #expect(after.values.count == names.count * 200)
        #expect(after.values.allSatisfy { $0.chain.isEmpty }, "a chain was left after its resolution")
    }
}
