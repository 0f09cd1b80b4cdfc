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
// deadlock fails the test instead of hanging the run. Each test that names an
// overlap (closures waiting for each other's builds, a closure running while other
// threads register) waits inside the work until that overlap has happened, and
// checks that it did (``Overlaps``): the counts it waits for are exact.

private let bound = watchdogBound

final class Node: Sendable {
    let children: [Node]
    init(_ children: [Node] = []) { self.children = children }
}

/// Factories whose closures resolve each other's dependencies in different orders.
/// `hook` runs inside the builds of `p`, `lower` and `x`, named so, before they return.
final class CrossedContainer: SharedContainer {
    static let shared = CrossedContainer()
    let manager = ContainerManager()
    let builds = Counter()
    let overlaps = Overlaps()
    let hook: @Sendable (String, CrossedContainer) -> Void

    init(hook: @escaping @Sendable (String, CrossedContainer) -> Void = { _, _ in }) {
        self.hook = hook
    }

    /// A hook that makes the build of `factory` end only once `count` resolutions from
    /// this container wait for a build.
    static func waiting(_ count: Int, at factory: String, for what: String) -> @Sendable (String, CrossedContainer) -> Void {
        { name, container in
            guard name == factory else { return }
            container.overlaps.wait(what) { container.manager.buildWaiters == count }
        }
    }
}

extension CrossedContainer {
    var p: Factory<Node> {
        self {
            self.builds.increment()
            self.hook("p", self)
            return Node()
        }.cached
    }
    var q: Factory<Node> {
        self {
            self.builds.increment()
            return Node()
        }.singleton
    }
    var x: Factory<Node> {
        self {
            self.hook("x", self)
            return Node([self.p(), self.q()])
        }.cached
    }
    var y: Factory<Node> { self { Node([self.q(), self.p()]) }.shared }

    // A singleton at the top, then cached, shared, graph, unique and per-parameter below.
    var top: Factory<Node> { self { Node([self.middle(), self.perParameter(1)]) }.singleton }
    var middle: Factory<Node> { self { Node([self.lower(), self.leaf(), self.leaf()]) }.cached }
    var lower: Factory<Node> {
        self {
            self.hook("lower", self)
            return Node([self.leaf(), self.plain()])
        }.shared
    }
    var leaf: Factory<Node> { self { Node([self.plain()]) }.graph }
    var plain: Factory<Node> { self { Node() } }
    var perParameter: ParameterFactory<Int, Node> { self { _ in Node([self.plain()]) }.cached.scopeOnParameters }
}

/// One round of two containers whose closures resolve each other's factories: the
/// factories take it as their parameter (a cached `ParameterFactory` keeps its
/// first parameter's instance: one per container, as a `Factory`).
final class Crossing: Sendable {
    let east = EastContainer()
    let west = WestContainer()
    let bStarted = Signal()
    let dStarted = Signal()
    /// Raised by `b`'s build once it saw both waits; `d`'s build ends only then, so that
    /// `c`'s builder still waits for it when `b`'s build looks.
    let seen = Signal()
    let overlaps = Overlaps()
}

final class EastContainer: ManagedContainer {
    let manager = ContainerManager()
}

final class WestContainer: ManagedContainer {
    let manager = ContainerManager()
}

extension EastContainer {
    /// Resolves West's `b` once another thread builds it.
    var a: ParameterFactory<Crossing, Node> {
        self { crossing in
            crossing.overlaps.record("b's build started", crossing.bStarted.wait(upTo: overlapBound))
            return Node([crossing.west.b(crossing)])
        }.cached
    }
    var d: ParameterFactory<Crossing, Node> {
        self { crossing in
            crossing.dStarted.raise()
            crossing.overlaps.record("b's build saw both waits", crossing.seen.wait(upTo: overlapBound))
            return Node()
        }.cached
    }
}

extension WestContainer {
    /// Ends only once `a`'s builder (in an East closure) waits for it while `c`'s
    /// builder (in a West closure) waits for East's `d`.
    var b: ParameterFactory<Crossing, Node> {
        self { crossing in
            crossing.bStarted.raise()
            crossing.overlaps.wait("an East closure waits for a West build while a West closure waits for an East build") {
                crossing.east.manager.buildWaiters == 1 && crossing.west.manager.buildWaiters == 1
            }
            crossing.seen.raise()
            return Node()
        }.cached
    }
    /// Resolves East's `d` once another thread builds it.
    var c: ParameterFactory<Crossing, Node> {
        self { crossing in
            crossing.overlaps.record("d's build started", crossing.dStarted.wait(upTo: overlapBound))
            return Node([crossing.east.d(crossing)])
        }.cached
    }
}

/// A container another one resolves from while it auto-registers. Its `b`'s build
/// raises `started`, then, made with `bWaitsFor`, ends only once that many
/// resolutions wait for it.
final class PeerContainer: ManagedContainer {
    let manager = ContainerManager()
    let started = Signal()
    let overlaps = Overlaps()
    let bWaitsFor: Int

    init(bWaitsFor: Int = 0) {
        self.bWaitsFor = bWaitsFor
    }

    var b: Factory<Node> {
        self {
            self.started.raise()
            if self.bWaitsFor > 0 {
                self.overlaps.wait("\(self.bWaitsFor) resolutions wait for b, autoRegister() among them") {
                    self.manager.buildWaiters == self.bWaitsFor
                }
            }
            return Node()
        }.cached
    }
    var c: Factory<Node> { self { Node() }.cached }
}

/// A container that resolves another container's factory while it auto-registers,
/// once that factory's build has started on another thread.
final class EagerContainer: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    let peer: PeerContainer

    init(peer: PeerContainer) {
        self.peer = peer
    }

    var service: Factory<Node> { self { Node() } }

    func autoRegister() {
        peer.overlaps.record("b's build started", peer.started.wait(upTo: overlapBound))
        let west = peer.b()
        service.register { Node([west]) }
    }
}

/// Runs `body` with singleton storage of its own, as FactoryTesting's trait does:
/// containers created inside use it, so other suites' singleton resets cannot
/// disturb the counts here, and this file's resets cannot disturb theirs.
private func isolatedSingletons<R>(_ body: (IsolatedSingletons) -> R) -> R {
    withIsolatedSingletons { body($0) }
}

@Suite struct DeadlockTests {
    /// Three threads resolve `x` (`p`, then `q`) and three `y` (`q`, then `p`). The
    /// build of `p` ends only once five resolutions wait: two at `x`, two at `y`, and
    /// whichever of `x`'s and `y`'s builders did not build `p`, inside its closure,
    /// for the build the other runs inside its own.
    @Test func closuresResolvingSharedDependenciesInOppositeOrdersFinish() {
        for round in 0..<10 {
            let missed = isolatedSingletons { isolate -> Bool in
                let container = isolate(
                    CrossedContainer(
                        hook: CrossedContainer.waiting(5, at: "p", for: "x's or y's builder waits for p, four more at x and y")
                    ))
                let tops = Collector<Node>()
                let finished = finishes(6) { index in
                    tops.append(index.isMultiple(of: 2) ? container.x() : container.y())
                }
                #expect(finished, "round \(round): a deadlock")
                container.overlaps.expect(1)
                guard finished else { return true }
                // Everyone got the one `p` and the one `q`, whichever order they came in.
                let children = tops.values.map { Set($0.children.map(ObjectIdentifier.init)) }
                #expect(tops.values.count == 6)
                #expect(Set(children).count == 1, "round \(round)")
                #expect(container.builds.value == 2, "round \(round)")
                return container.overlaps.anyMissed
            }
            if missed { break }
        }
    }

    /// Eight threads enter at every level: `top` (a singleton), `middle` (cached),
    /// `lower` (shared) and per-parameter factories. The build of `lower` ends only
    /// once five resolutions wait, one level above another: one at `top`, two at
    /// `middle` (`top`'s builder among the resolutions there, unless it builds
    /// `middle` itself) and two at `lower` (`middle`'s builder among them, unless it
    /// builds `lower` itself).
    @Test func closuresResolvingEveryScopeFromManyEntryPointsFinish() {
        for round in 0..<10 {
            let missed = isolatedSingletons { isolate -> Bool in
                let container = isolate(
                    CrossedContainer(hook: CrossedContainer.waiting(5, at: "lower", for: "five resolutions wait at three levels"))
                )
                let middles = Collector<ObjectIdentifier>()
                // Held: a shared instance its builder drops at once is built again by
                // the resolutions that waited for it, and this test counts one build.
                let lowers = Collector<Node>()
                let finished = finishes(8) { index in
                    switch index % 4 {
                    case 0: middles.append(ObjectIdentifier(container.top().children[0]))
                    case 1: middles.append(ObjectIdentifier(container.middle()))
                    case 2: lowers.append(container.lower())
                    default: _ = container.perParameter(index)
                    }
                }
                #expect(finished, "round \(round): a deadlock")
                container.overlaps.expect(1)
                guard finished else { return true }
                #expect(middles.values.count == 4)
                #expect(Set(middles.values).count == 1, "round \(round): one cached middle")
                #expect(Set(lowers.values.map(ObjectIdentifier.init)).count == 1, "round \(round): one shared lower")
                return container.overlaps.anyMissed
            }
            if missed { break }
        }
    }

    /// East's `a` resolves West's `b`, West's `c` resolves East's `d`: on four threads,
    /// `a` and `c` are built while two others build `b` and `d`, and those builds end
    /// only once `a`'s builder waits for `b` and `c`'s builder waits for `d`, at once.
    @Test func closuresResolvingAcrossContainersInBothDirectionsFinish() {
        for round in 0..<5 {
            let crossing = Crossing()
            let nodes = Collector<(Int, Node)>()
            let finished = finishes(4) { index in
                switch index {
                case 0: nodes.append((0, crossing.east.a(crossing)))
                case 1: nodes.append((1, crossing.west.c(crossing)))
                case 2: nodes.append((2, crossing.west.b(crossing)))
                default: nodes.append((3, crossing.east.d(crossing)))
                }
            }
            #expect(finished, "round \(round): a deadlock")
            // Two starts seen, and both builds saw both waits.
            crossing.overlaps.expect(4)
            guard finished else { break }
            let byIndex = Dictionary(nodes.values.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
            #expect(byIndex[0]?.children.first === byIndex[2], "a holds the b another thread built")
            #expect(byIndex[1]?.children.first === byIndex[3], "c holds the d another thread built")
            if crossing.overlaps.anyMissed { break }
        }
    }

    /// Four threads resolve a new container whose `autoRegister()` resolves `b` of
    /// another container, which four other threads resolve: `autoRegister()` waits for
    /// the build of `b` another thread runs (with three more resolutions of `b`), while
    /// three threads wait for `autoRegister()`.
    @Test func autoRegistrationThatResolvesAnotherContainerFinishes() {
        for round in 0..<10 {
            let peer = PeerContainer(bWaitsFor: 4)
            let eager = EagerContainer(peer: peer)
            let services = Collector<Node>()
            let finished = finishes(8) { index in
                if index.isMultiple(of: 2) { services.append(eager.service()) } else { _ = peer.b() }
            }
            #expect(finished, "round \(round): a deadlock")
            peer.overlaps.expect(2)
            guard finished else { break }
            let b = peer.b()
            #expect(services.values.count == 4)
            #expect(services.values.allSatisfy { $0.children.first === b }, "round \(round)")
            if peer.overlaps.anyMissed { break }
        }
    }

    /// Four threads resolve while four others register, reset, push and pop, until the
    /// resolutions are done. The first build of `x` ends only once the others have
    /// made eight of those changes while it ran.
    @Test func resolvingWhileOthersRegisterResetPushAndPopFinishes() {
        isolatedSingletons { isolate in
            let changes = Counter()
            let resolversDone = Counter()
            let firstBuild = Counter()
            let container = isolate(
                CrossedContainer { name, container in
                    guard name == "x", firstBuild.increment() == 1 else { return }
                    let before = changes.value
                    container.overlaps.wait("eight registrations, resets, pushes and pops while x's closure runs") {
                        changes.value >= before + 8
                    }
                })
            let finished = finishes(8) { index in
                if index < 4 {
                    for step in 0..<150 { _ = step.isMultiple(of: 2) ? container.x() : container.top() }
                    resolversDone.increment()
                    return
                }
                // At least 150 changes, and more while the resolutions go on (bounded, should they not end).
                let deadline = monotonicSeconds() + 2 * overlapBound
                var step = 0
                while step < 150 || (resolversDone.value < 4 && monotonicSeconds() < deadline) {
                    switch (index + step) % 6 {
                    case 0: container.p.register { Node() }
                    case 1: container.p.reset()
                    case 2: container.manager.push()
                    case 3: container.manager.pop()
                    case 4: container.manager.reset(options: .scope)
                    default: container.manager.reset(scope: .cached)
                    }
                    changes.increment()
                    step += 1
                }
            }
            #expect(finished, "a deadlock")
            container.overlaps.expect(1)
        }
    }

    /// Decorators and the trace logger run outside every lock, so they may resolve.
    /// They resolve from another container type: cycle detection goes by factory
    /// key (container type, name, type), and a logger that resolves from its own
    /// container would log forever. It names no overlap: what it shows holds on one
    /// thread as on four, which only add contention.
    @Test func decoratorsAndTheTraceLoggerMayResolveFactories() {
        isolatedSingletons { isolate in
            let container = isolate(CrossedContainer())
            let other = PeerContainer()
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
            // One line per resolution: each `decorated()` logs itself and the `plain`
            // its decorator resolves (2 × 200); `x` logs its one build with `p` and `q`
            // (3), and a hit each other time (199).
            #expect(logged.value == 602)
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
