import FactoryTestSupport
import FactoryTesting
import Testing

/// 64 cases that each register their own mocks in `Container.shared` and run in
/// parallel: each must see only its own registrations, caches and singletons.
@Suite(.container) struct ParallelIsolationTests {
    static let cases = 0..<64

    @Test(arguments: cases) func eachCaseSeesOnlyItsOwnMocks(_ id: Int) async throws {
        let container = Container.shared
        container.number.register { id }
        container.greeter.register { MockGreeter(name: "mock \(id)") }
        // A singleton registered by every case: one shared storage would hand one
        // case's instance to another.
        container.singletonBox.register { Box(id: id) }
        let singleton = container.singletonBox()
        let cached = container.cachedBox()

        await Overlap.shared.arrive()
        for _ in 0..<25 {
            #expect(Container.shared === container)
            #expect(Container.shared.number() == id)
            #expect(resolve(\.greeter).name == "mock \(id)")
            #expect(Container.shared.singletonBox() === singleton)
            #expect(Container.shared.singletonBox().id == id)
            #expect(Container.shared.cachedBox() === cached)
            await Task.yield()
        }
        await Overlap.shared.leave()
    }

    @Test(.container { $0.greeter.register { MockGreeter(name: "trait") } }, arguments: cases)
    func traitMocksAndBodyMocksStayInTheirCase(_ id: Int) async throws {
        let container = Container.shared
        #expect(container.greeter().name == "trait")
        container.label.register { MockGreeter(name: "\($0) \(id)") }

        await Overlap.shared.arrive()
        for _ in 0..<25 {
            #expect(Container.shared.label("case").name == "case \(id)")
            #expect(Container.shared.greeter().name == "trait")
            await Task.yield()
        }
        await Overlap.shared.leave()
    }
}

/// Holds each case until several are in flight at once (or a short timeout
/// passes), so the cases overlap instead of happening to run one after another.
actor Overlap {
    static let shared = Overlap()
    /// How many cases to wait for; fewer if the runner does not run that many at once.
    private static let target = 8
    private var inFlight = 0
    private(set) var peak = 0

    func arrive() async {
        inFlight += 1
        peak = max(peak, inFlight)
        var waited = 0
        while inFlight < Self.target && waited < 500 {
            try? await Task.sleep(nanoseconds: 1_000_000)
            waited += 1
        }
    }

    func leave() {
        inFlight -= 1
    }
}
