import FactoryScopes
import FactoryTestSupport
import Testing

// A `scopeOnParameters` parameter's `hash(into:)` and `==` are user code: they run
// with no library lock held, so they may resolve from the container whose cache
// they key. The key below takes that container's lock in both (reading an option
// does), so running either under the lock deadlocks.

final class ComparingContainer: ManagedContainer {
    let manager = ContainerManager()
    let builds = Counter()
    var byKey: ParameterFactory<ComparingKey, Thing> {
        self {
            self.builds.increment()
            return Thing(id: $0.id)
        }
        .cached.scopeOnParameters
    }
    var singletonByKey: ParameterFactory<ComparingKey, Thing> { self { Thing(id: $0.id) }.singleton.scopeOnParameters }
    var asyncByKey: AsyncParameterFactory<ComparingKey, Pool> { self { Pool(serial: $0.id) }.cached.scopeOnParameters }
}

/// A parameter whose hash and equality read an option of its container (taking its lock).
final class ComparingKey: Hashable, @unchecked Sendable {
    // Immutable after init.
    let id: Int
    let container: ComparingContainer
    /// All keys hash alike when set: every entry of the cache shares one hash.
    let colliding: Bool
    init(_ id: Int, _ container: ComparingContainer, colliding: Bool = false) {
        self.id = id
        self.container = container
        self.colliding = colliding
    }
    static func == (lhs: ComparingKey, rhs: ComparingKey) -> Bool {
        _ = lhs.container.manager.trace
        return lhs.id == rhs.id
    }
    func hash(into hasher: inout Hasher) {
        _ = container.manager.trace
        hasher.combine(colliding ? 0 : id)
    }
}

@Suite struct ParameterKeyOutsideLocksTests {
    @Test func aParameterComparedAndHashedByTheContainerItKeys() throws {
        let container = ComparingContainer()
        let results = Collector<Thing>()
        #expect(
            finishes(1) { _ in
                // The first hashes the key; the second also compares an equal one.
                results.append(container.byKey(ComparingKey(1, container)))
                results.append(container.byKey(ComparingKey(1, container)))
                results.append(container.byKey(ComparingKey(2, container)))
            }, "a deadlock: the parameter's hash or == ran under the container's lock")
        let things = results.values
        try #require(things.count == 3)
        #expect(things[0] === things[1])
        #expect(things[0] !== things[2])
    }

    @Test func aSingletonParameterComparedByTheContainerItKeys() {
        withIsolatedSingletons { isolate in
            let container = isolate(ComparingContainer())
            let results = Collector<Thing>()
            #expect(
                finishes(1) { _ in
                    results.append(container.singletonByKey(ComparingKey(7, container)))
                    results.append(container.singletonByKey(ComparingKey(7, container)))
                }, "a deadlock: the parameter's hash or == ran under a lock")
            let things = results.values
            #expect(things.count == 2 && things[0] === things[1])
        }
    }

    @Test func anAsyncParameterComparedByTheContainerItKeys() async throws {
        let container = ComparingContainer()
        try await withAsyncWatchdog("a deadlock: the parameter's hash or == ran under the container's lock") {
            let first = try await container.asyncByKey(ComparingKey(1, container))
            let again = try await container.asyncByKey(ComparingKey(1, container))
            let other = try await container.asyncByKey(ComparingKey(2, container))
            #expect(first === again)
            #expect(first !== other)
        }
    }

    /// Threads that ask for equal parameters at once, each with a key of its own,
    /// share one build per parameter: the key a parameter maps to is settled
    /// under the lock even though it is compared outside it. The four threads
    /// pass a barrier before each parameter, so they race for every one.
    @Test(arguments: [false, true])
    func equalParametersFromManyThreadsShareOneBuild(colliding: Bool) {
        let container = ComparingContainer()
        let results = Collector<Thing>()
        let parameters = 20
        let barrier = Barrier(4)
        let brokenRounds = Counter()
        #expect(
            finishes(4) { _ in
                for id in 0..<parameters {
                    if !barrier.arriveAndWait() { brokenRounds.increment() }
                    results.append(container.byKey(ComparingKey(id, container, colliding: colliding)))
                }
            })
        #expect(brokenRounds.value == 0, "a thread never reached the barrier")
        #expect(container.builds.value == parameters)
        let key = container.byKey.registration.key
        #expect(container.manager.parameterEntryCount(key) == parameters)
        #expect(container.manager.parameterIndexMatchesEntries(key))
        let things = results.values
        for id in 0..<parameters {
            let built = things.filter { $0.id == id }
            #expect(built.count == 4)
            #expect(built.allSatisfy { $0 === built[0] })
        }
    }

    /// Every way entries leave a per-parameter cache leaves its index of keys
    /// matching what stays: none is left behind, none is missing.
    @Test func theKeysIndexFollowsResetsPopsAndExpiry() {
        let container = ComparingContainer()
        let key = container.byKey.registration.key
        for id in 0..<5 { _ = container.byKey(ComparingKey(id, container, colliding: id % 2 == 0)) }
        #expect(container.manager.parameterIndexMatchesEntries(key))
        container.manager.push()
        for id in 5..<8 { _ = container.byKey(ComparingKey(id, container, colliding: true)) }
        #expect(container.manager.parameterEntryCount(key) == 8)
        container.manager.pop()
        #expect(container.manager.parameterEntryCount(key) == 5)
        #expect(container.manager.parameterIndexMatchesEntries(key))
        // Equal parameters find the restored entries again.
        #expect(container.byKey(ComparingKey(0, container, colliding: true)).id == 0)
        #expect(container.builds.value == 8)
        container.manager.reset(options: .scope)
        #expect(container.manager.parameterEntryCount(key) == 0)
        #expect(container.manager.parameterIndexMatchesEntries(key))
    }
}
