import FactoryTestSupport
import Testing

@testable import FactoryTesting

extension Container {
    /// A small graph: a unique root resolving a singleton that captures a cached
    /// factory, the cached factory again (a hit), and a cycle.
    var drawRoot: Factory<Holder> { self { Holder(self.drawSingleton(), self.drawCached(), self.drawCycleA()) } }
    var drawSingleton: Factory<Holder> { self { Holder(self.drawCached()) }.singleton }
    var drawCached: Factory<Box> { self { Box() }.cached }
    var drawCycleA: Factory<Holder> { self { Holder(self.drawCycleB()) } }
    var drawCycleB: Factory<Holder> { self { Holder(self.drawCycleA()) } }
}

@Suite(.container)
struct ResolvedGraphTests {
    @Test func theGraphHasEveryResolutionCacheHitsIncluded() {
        let graph = Container.shared.graphReport(\.drawRoot).graph
        #expect(
            graph.nodes.map { "\($0.name) \($0.scope)" } == [
                "Container.drawCached<Box> cached", "Container.drawCycleA<Holder> unique",
                "Container.drawCycleB<Holder> unique", "Container.drawRoot<Holder> unique",
                "Container.drawSingleton<Holder> singleton",
            ])
        // drawRoot resolves drawCached after drawSingleton cached it: the hit is an edge too.
        #expect(
            graph.edges.contains(
                ResolvedGraph.Edge(
                    from: "Container.drawRoot<Holder>", to: "Container.drawCached<Box>", kind: .resolves,
                    isInCycle: false)))
    }

    @Test func theGraphIsDrawnAsDot() {
        let report = Container.shared.graphReport(\.drawRoot)
        #expect(report.failures.map(\.kind) == [.captiveDependency, .circularDependency])
        #expect(
            report.dot() == """
                digraph Factory {
                    rankdir=LR;
                    node [shape=box];
                    n_Container_drawCached_Box_ [label="Container.drawCached<Box>\\ncached"];
                    n_Container_drawCycleA_Holder_ [label="Container.drawCycleA<Holder>\\nunique"];
                    n_Container_drawCycleB_Holder_ [label="Container.drawCycleB<Holder>\\nunique"];
                    n_Container_drawRoot_Holder_ [label="Container.drawRoot<Holder>\\nunique"];
                    n_Container_drawSingleton_Holder_ [label="Container.drawSingleton<Holder>\\nsingleton"];
                    n_Container_drawCycleA_Holder_ -> n_Container_drawCycleB_Holder_ [color=red, label="cycle"];
                    n_Container_drawCycleB_Holder_ -> n_Container_drawCycleA_Holder_ [color=red, label="cycle"];
                    n_Container_drawRoot_Holder_ -> n_Container_drawCached_Box_;
                    n_Container_drawRoot_Holder_ -> n_Container_drawCycleA_Holder_;
                    n_Container_drawRoot_Holder_ -> n_Container_drawSingleton_Holder_;
                    n_Container_drawSingleton_Holder_ -> n_Container_drawCached_Box_;
                    n_Container_drawSingleton_Holder_ -> n_Container_drawCached_Box_ [color=red, style=dashed, label="captures"];
                }

                """)
    }

    @Test func theGraphIsDrawnAsMermaid() {
        let report = Container.shared.graphReport(\.drawRoot)
        #expect(
            report.mermaid() == """
                flowchart LR
                    n_Container_drawCached_Box_["Container.drawCached#lt;Box#gt;<br/>cached"]
                    n_Container_drawCycleA_Holder_["Container.drawCycleA#lt;Holder#gt;<br/>unique"]
                    n_Container_drawCycleB_Holder_["Container.drawCycleB#lt;Holder#gt;<br/>unique"]
                    n_Container_drawRoot_Holder_["Container.drawRoot#lt;Holder#gt;<br/>unique"]
                    n_Container_drawSingleton_Holder_["Container.drawSingleton#lt;Holder#gt;<br/>singleton"]
                    n_Container_drawCycleA_Holder_ -->|cycle| n_Container_drawCycleB_Holder_
                    n_Container_drawCycleB_Holder_ -->|cycle| n_Container_drawCycleA_Holder_
                    n_Container_drawRoot_Holder_ --> n_Container_drawCached_Box_
                    n_Container_drawRoot_Holder_ --> n_Container_drawCycleA_Holder_
                    n_Container_drawRoot_Holder_ --> n_Container_drawSingleton_Holder_
                    n_Container_drawSingleton_Holder_ --> n_Container_drawCached_Box_
                    n_Container_drawSingleton_Holder_ -.->|captures| n_Container_drawCached_Box_
                    linkStyle 0,1,6 stroke:red

                """)
    }

    @Test func identifiersOfNamesThatWouldClashAreNumbered() {
        let graph = ResolvedGraph(
            scopes: ["A.b<C>": "unique", "A.b_C_": "cached"], resolves: [["A.b<C>", "A.b_C_"]], captures: [],
            cycles: [])
        #expect(
            graph.dot() == """
                digraph Factory {
                    rankdir=LR;
                    node [shape=box];
                    n_A_b_C_ [label="A.b<C>\\nunique"];
                    n_A_b_C__2 [label="A.b_C_\\ncached"];
                    n_A_b_C_ -> n_A_b_C__2;
                }

                """)
    }

    /// The text WritingTests.md shows for this graph.
    @Test func theReportNamesTheCaptureAndTheCycle() {
        let report = Container.shared.graphReport(\.drawRoot)
        #expect(
            report.description == """
                Graph validation: 2 failure(s) in 1 factories
                  Container.drawRoot<Holder>: FactoryCore: captive dependency - Container.drawSingleton<Holder> \
                (singleton) resolves Container.drawCached<Box> (cached) and keeps it beyond its scope; chain: \
                Container.drawRoot<Holder> > Container.drawSingleton<Holder> > Container.drawCached<Box>
                  Container.drawRoot<Holder>: FactoryCore: circular dependency chain - Container.drawRoot<Holder> > \
                Container.drawCycleA<Holder> > Container.drawCycleB<Holder> > Container.drawCycleA<Holder>
                """)
        #expect(
            report.captives.map { $0.holderChain.map(\.description) } == [
                ["Container.drawRoot<Holder>", "Container.drawSingleton<Holder>"]
            ])
    }
}
