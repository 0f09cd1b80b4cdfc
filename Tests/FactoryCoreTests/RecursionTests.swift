import FactoryCore
import FactoryTestSupport
import Testing

// A cycle is one factory re-entered on the same chain with an equal parameter
// (or with none). Recursion with a different parameter and a factory of another
// container instance are ordinary resolutions.

final class Node: Sendable {
    let depth: Int
    let children: [Node]
    init(depth: Int, children: [Node]) {
        self.depth = depth
        self.children = children
    }
    /// The number of nodes in this tree.
    var size: Int { 1 + children.reduce(0) { $0 + $1.size } }
}

final class RecursionContainer: ManagedContainer {
    let manager = ContainerManager()
    /// The container this one delegates to, as a per-request container delegates to the app's.
    let parent: RecursionContainer?
    init(parent: RecursionContainer? = nil) { self.parent = parent }

    var tree: ParameterFactory<Int, Node> {
        self { depth in
            Node(depth: depth, children: depth == 0 ? [] : [self.tree(depth - 1), self.tree(depth - 1)])
        }
    }
    /// Resolves itself with the same parameter: a cycle.
    var sameParameter: ParameterFactory<Int, Node> {
        self { depth in Node(depth: depth, children: [self.sameParameter(depth)]) }
    }
    /// Resolves the same factory of the parent container: not a cycle.
    var level: Factory<Int> {
        self { self.parent.map { $0.level() + 1 } ?? 0 }
    }
    /// Resolves the same factory of the same container: a cycle.
    var selfLevel: Factory<Int> {
        self { self.selfLevel() + 1 }
    }
}

@Suite struct RecursionTests {
    @Test func aParameterFactoryMayResolveItselfWithAnotherParameter() {
        let tree = RecursionContainer().tree(4)
        #expect(tree.depth == 4)
        #expect(tree.size == 31)
        #expect(tree.children.first?.children.first?.depth == 2)
    }

    @Test func theSameFactoryOfAnotherContainerInstanceIsNotACycle() {
        let app = RecursionContainer()
        let session = RecursionContainer(parent: app)
        let request = RecursionContainer(parent: session)
        #expect(request.level() == 2)
        #expect(app.level() == 0)
    }

    #if EXIT_TESTS
    @Test func recursionWithAnEqualParameterStopsTheProgramNamingTheChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RecursionContainer().sameParameter(3)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "circular dependency chain - RecursionContainer.sameParameter<Node> > RecursionContainer.sameParameter<Node>"
            ))
    }
    #endif

    #if EXIT_TESTS
    @Test func aFactoryResolvingItselfInTheSameContainerStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = RecursionContainer()
            _ = RecursionContainer(parent: app).selfLevel()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "circular dependency chain - RecursionContainer.selfLevel<Int> > RecursionContainer.selfLevel<Int>"))
    }
    #endif
}
