import Testing

@testable import FactoryTesting

@Suite struct GraphValidationReportTests {
    private static func key(_ name: StaticString) -> FactoryKey {
        FactoryKey(name: name, valueType: Int.self, parameterType: Void.self, containerType: Container.self)
    }

    private static func cycle(_ names: [StaticString]) -> GraphFailure {
        let chain = names.map(key)
        return GraphFailure(entry: "\(chain[0])", kind: .circularDependency, chain: chain, message: "cycle")
    }

    @Test func rotationsOfOneCycleCountOnce() {
        let report = GraphValidationReport(
            entries: ["a", "b", "c"],
            failures: [
                Self.cycle(["a", "b", "a"]),
                Self.cycle(["b", "a", "b"]),
                Self.cycle(["x", "c", "c"]),
            ])
        #expect(
            report.cycles.map { $0.map(\.description) } == [
                ["Container.a<Int>", "Container.b<Int>", "Container.a<Int>"],
                ["Container.c<Int>", "Container.c<Int>"],
            ])
    }

    @Test func theCycleIsThePartOfTheChainThatRepeats() {
        #expect(
            Self.cycle(["root", "a", "b", "a"]).cycle.map(\.description) == [
                "Container.a<Int>", "Container.b<Int>", "Container.a<Int>",
            ])
        let promise = GraphFailure(entry: "p", kind: .unregisteredPromise, chain: [Self.key("p")], message: "m")
        #expect(promise.cycle.isEmpty)
    }

    @Test func theDescriptionListsEveryFailure() {
        let report = GraphValidationReport(entries: ["a"], failures: [Self.cycle(["a", "a"])])
        #expect(report.description == "Graph validation: 1 failure(s) in 1 factories\n  Container.a<Int>: cycle")
        #expect(
            GraphValidationReport(entries: ["a"], failures: []).description
                == "Graph validation: all 1 factories resolved")
    }
}
