import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct CycleTests {
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

    @Test func aFactoryResolvedTwiceInOneCycleIsNotACycle() {
        let container = Container()
        let pair = Factory<(Service, Service)>(container, key: "pair") { (container.service(), container.service()) }
        let (first, second) = pair()
        #expect(first !== second)
    }

    @Test func chainIsPerThreadAndClearedAfterEachResolution() {
        let container = Container()
        _ = container.consumer()
        _ = container.consumer()
        runOnThreads(4) { _ in
            for _ in 0..<200 { _ = container.consumer() }
        }
    }
}
