import FactoryScopes
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// No-deadlock tests. Factory closures resolve other factories (scoped or not, of
// this container or another), and threads resolve, register and reset at once;
// every test runs its work on real threads and waits a bounded time, so a
// deadlock fails the test instead of hanging the run. The bound is generous
// (sanitizer builds on a busy machine); the work itself takes milliseconds.

private let bound = watchdogBound

final class Node: Sendable {
    let children: [Node]
    init(_ children: [Node] = []) { self.children = children }
}

/// Factories whose closures resolve each other's dependencies in different orders.
final class CrossedContainer: SharedContainer {
    static let shared = CrossedContainer()
    let manager = ContainerManager()
    let builds = Counter()
}

extension CrossedContainer {
    var p: Factory<Node> {
        self {
            self.builds.increment()
            pause(milliseconds: 5)
            return Node()
        }.cached
    }
    var q: Factory<Node> {
        self {
            self.builds.increment()
            pause(milliseconds: 5)
            return Node()
        }.singleton
    }
    var x: Factory<Node> { self { Node([self.p(), self.q()]) }.cached }
    var y: Factory<Node> { self { Node([self.q(), self.p()]) }.shared }

    // A singleton at the top, then cached, shared, graph, unique and per-parameter below.
    var top: Factory<Node> {
        self {
            pause(milliseconds: 2)
            return Node([self.middle(), self.perParameter(1)])
        }.singleton
    }
    var middle: Factory<Node> { self { Node([self.lower(), self.leaf(), self.leaf()]) }.cached }
    var lower: Factory<Node> {
        self {
            pause(milliseconds: 2)
            return Node([self.leaf(), self.plain()])
        }.shared
    }
    var leaf: Factory<Node> { self { Node([self.plain()]) }.graph }
    var plain: Factory<Node> { self { Node() } }
    var perParameter: ParameterFactory<Int, Node> { self { _ in Node([self.plain()]) }.cached.scopeOnParameters }
}

/// Two containers whose cached factories resolve each other's.
final class EastContainer: SharedContainer {
    static let shared = EastContainer()
    let manager = ContainerManager()
}

final class WestContainer: SharedContainer {
    static let shared = WestContainer()
    let manager = ContainerManager()
}

extension EastContainer {
    var a: Factory<Node> {
        self {
            pause(milliseconds: 3)
            return Node([WestContainer.shared.b()])
        }.cached
    }
    var d: Factory<Node> {
        self {
            pause(milliseconds: 3)
            return Node()
        }.singleton
    }
}

extension WestContainer {
    var b: Factory<Node> {
        self {
            pause(milliseconds: 3)
            return Node()
        }.cached
    }
    var c: Factory<Node> {
        self {
            pause(milliseconds: 3)
            return Node([EastContainer.shared.d()])
        }.cached
    }
}

/// A container that resolves another container's factories while it auto-registers.
final class EagerContainer: SharedContainer, AutoRegistering {
    static let shared = EagerContainer()
    let manager = ContainerManager()

    var service: Factory<Node> { self { Node() } }

    func autoRegister() {
        let west = WestContainer.shared.b()
        service.register { Node([west]) }
    }
}

/// Runs `body` with singleton storage of its own, as FactoryTesting's trait does:
/// containers created inside use it, so other suites' singleton resets cannot
/// disturb the counts here, and this file's resets cannot disturb theirs.
private func isolatedSingletons(_ body: (IsolatedSingletons) -> Void) {
    withIsolatedSingletons { body($0) }
}

@Suite struct DeadlockTests {
    @Test func closuresResolvingSharedDependenciesInOppositeOrdersFinish() {
        for round in 0..<10 {
            isolatedSingletons { isolate in
                let container = isolate(CrossedContainer())
                let tops = Collector<Node>()
                let finished = finishes(6) { index in
                    tops.append(index.isMultiple(of: 2) ? container.x() : container.y())
                }
                #expect(finished, "round \(round): a deadlock")
                guard finished else { return }
                // Everyone got the one `p` and the one `q`, whichever order they came in.
                let children = tops.values.map { Set($0.children.map(ObjectIdentifier.init)) }
                #expect(Set(children).count == 1, "round \(round)")
                #expect(container.builds.value == 2, "round \(round)")
            }
        }
    }

    @Test func closuresResolvingEveryScopeFromManyEntryPointsFinish() {
        for round in 0..<10 {
            isolatedSingletons { isolate in
                let container = isolate(CrossedContainer())
                let middles = Collector<ObjectIdentifier>()
                let finished = finishes(8) { index in
                    switch index % 4 {
                    case 0: middles.append(ObjectIdentifier(container.top().children[0]))
                    case 1: middles.append(ObjectIdentifier(container.middle()))
                    case 2: _ = container.lower()
                    default: _ = container.perParameter(index)
                    }
                }
                #expect(finished, "round \(round): a deadlock")
                guard finished else { return }
                #expect(Set(middles.values).count == 1, "round \(round): one cached middle")
            }
        }
    }

    @Test func closuresResolvingAcrossContainersInBothDirectionsFinish() {
        for round in 0..<10 {
            let (east, west) = (EastContainer(), WestContainer())
            EastContainer.shared.manager.reset(options: .scope)
            WestContainer.shared.manager.reset(options: .scope)
            let finished = finishes(8) { index in
                switch index % 4 {
                case 0: _ = EastContainer.shared.a()
                case 1: _ = WestContainer.shared.c()
                case 2:
                    _ = east.a()
                    _ = west.c()
                default:
                    _ = west.c()
                    _ = east.a()
                }
            }
            #expect(finished, "round \(round): a deadlock")
        }
    }

    @Test func autoRegistrationThatResolvesAnotherContainerFinishes() {
        for round in 0..<10 {
            let eager = EagerContainer()
            WestContainer.shared.manager.reset(options: .scope)
            let finished = finishes(8) { index in
                if index.isMultiple(of: 2) { _ = eager.service() } else { _ = WestContainer.shared.b() }
            }
            #expect(finished, "round \(round): a deadlock")
        }
    }

    @Test func resolvingWhileOthersRegisterResetPushAndPopFinishes() {
        isolatedSingletons { isolate in
            let container = isolate(CrossedContainer())
            let finished = finishes(8) { index in
                for step in 0..<150 {
                    switch (index + step) % 8 {
                    case 0: container.p.register { Node() }
                    case 1: container.p.reset()
                    case 2: container.manager.push()
                    case 3: container.manager.pop()
                    case 4: container.manager.reset(options: .scope)
                    case 5: container.manager.reset(scope: .cached)
                    default: break
                    }
                    _ = index.isMultiple(of: 2) ? container.x() : container.top()
                }
            }
            #expect(finished, "a deadlock")
        }
    }

    /// Decorators and the trace logger run outside every lock, so they may resolve.
    /// They resolve from another container type: cycle detection goes by factory
    /// key (container type, name, type), and a logger that resolves from its own
    /// container would log forever.
    @Test func decoratorsAndTheTraceLoggerMayResolveFactories() {
        isolatedSingletons { isolate in
            let container = isolate(CrossedContainer())
            let other = WestContainer()
            let logged = Counter()
            container.manager.trace = true
            container.manager.logger = { _ in
                _ = other.b()
                logged.increment()
            }
            container.decorator { _ in _ = other.c() }
            let decorated = Factory<Node>(container, key: "decorated") { Node() }
                .decorator { _ in _ = container.plain() }
            let finished = finishes(4) { _ in
                for _ in 0..<50 {
                    _ = decorated()
                    _ = container.x()
                }
            }
            #expect(finished, "a deadlock")
            #expect(logged.value > 0)
        }
    }

    /// While one thread's closure runs, resolutions of every other kind on other
    /// threads (other factories of the same storage, singletons, other parameters,
    /// registrations, resets, push and pop) go ahead: the closure waits for them, so
    /// any lock held around it would deadlock.
    @Test func aRunningClosureHoldsNoLockOtherResolutionsNeed() {
        for scope in [Scope.cached, Scope.singleton, Scope.shared, Scope.unique, Scope.graph] {
            isolatedSingletons { isolate in
                let container = isolate(CrossedContainer())
                let closureRuns = Signal()
                let othersDone = Signal()
                let gaveUp = Counter()
                let neverRan = Counter()
                let blocking = Factory<Node>(container, key: "blocking") {
                    closureRuns.raise()
                    if !othersDone.wait(upTo: bound / 2) { gaveUp.increment() }
                    return Node()
                }.scope(scope)
                let finished = finishes(2) { index in
                    if index == 0 {
                        _ = blocking()
                        return
                    }
                    guard closureRuns.wait() else {
                        neverRan.increment()
                        return
                    }
                    _ = container.x()
                    _ = container.y()
                    _ = container.top()
                    _ = container.perParameter(7)
                    container.plain.register { Node() }
                    _ = container.plain()
                    container.manager.reset(options: .registration)
                    container.manager.push()
                    container.manager.pop()
                    container.manager.reset(scope: .cached)
                    othersDone.raise()
                }
                #expect(finished, "\(type(of: scope)): a deadlock")
                #expect(neverRan.value == 0, "\(type(of: scope)): the closure never ran")
                #expect(gaveUp.value == 0, "\(type(of: scope)): the other thread was blocked while the closure ran")
            }
        }
    }
}
