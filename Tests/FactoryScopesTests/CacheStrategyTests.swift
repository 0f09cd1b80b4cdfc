import FactoryScopes
import FactoryTestSupport
import Foundation
import Testing

/// A cache strategy written the way a user outside the package would: one
/// `ScopeCache` per thread, container and factory, kept in the thread's dictionary.
final class PerThreadStrategy: CacheStrategy {
    /// A thread's cache of one factory, with the container it is for: a freed
    /// container's address (and so its `ObjectIdentifier`) is reused by later ones.
    final class Entry {
        weak var container: ContainerManager?
        let cache = ScopeCache()
        init(_ container: ContainerManager) { self.container = container }
    }

    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? {
        let name = "PerThreadStrategy \(ObjectIdentifier(container)) \(key)"
        let storage = Thread.current.threadDictionary
        if let entry = storage[name] as? Entry, entry.container === container { return entry.cache }
        let entry = Entry(container)
        storage[name] = entry
        return entry.cache
    }
}

/// A strategy that wrongly hands every container the same cache.
final class OneCacheForAllStrategy: CacheStrategy {
    let cache = ScopeCache()
    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? { cache }
}

/// One cache per container and factory, in a locked dictionary: the same cache
/// whichever thread or task asks.
///
/// `NSLock`, not `Mutex`: on Linux a contended `Mutex` hands over through the
/// kernel (a priority-inheritance futex), an ordering ThreadSanitizer cannot see,
/// so the TSan run reported the dictionary and the caches as raced.
final class PerContainerStrategy: CacheStrategy, @unchecked Sendable {
    // Sendable because `caches` is only touched with `lock` held.
    private let lock = NSLock()
    private var caches: [String: PerThreadStrategy.Entry] = [:]
    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? {
        lock.withLock {
            let name = "\(ObjectIdentifier(container)) \(key)"
            if let entry = caches[name], entry.container === container { return entry.cache }
            let entry = PerThreadStrategy.Entry(container)
            caches[name] = entry
            return entry.cache
        }
    }
}

/// A strategy that wrongly hands every factory of a container the same cache.
final class OneCachePerContainerStrategy: CacheStrategy, @unchecked Sendable {
    // Sendable because `caches` is only touched with `lock` held.
    private let lock = NSLock()
    private var caches: [ObjectIdentifier: PerThreadStrategy.Entry] = [:]
    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? {
        lock.withLock {
            if let entry = caches[ObjectIdentifier(container)], entry.container === container { return entry.cache }
            let entry = PerThreadStrategy.Entry(container)
            caches[ObjectIdentifier(container)] = entry
            return entry.cache
        }
    }
}

/// A strategy that never caches.
final class NoCacheStrategy: CacheStrategy {
    func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? { nil }
}

extension Scope {
    static let perThread = Scope(cacheStrategy: PerThreadStrategy())
    static let oneCacheForAll = Scope(cacheStrategy: OneCacheForAllStrategy())
    static let neverCached = Scope(cacheStrategy: NoCacheStrategy())
    static let perContainer = Scope(cacheStrategy: PerContainerStrategy())
    static let oneCachePerContainer = Scope(cacheStrategy: OneCachePerContainerStrategy())
}

final class PerThreadContainer: SharedContainer {
    static let shared = PerThreadContainer()
    let manager = ContainerManager()
    let builds = Counter()

    var thing: Factory<Thing> {
        self {
            Thing(id: self.builds.increment())
        }
        .scope(.perThread)
    }
    var perParameter: ParameterFactory<Int, Thing> {
        self { Thing(id: $0 * 1_000 + self.builds.increment()) }.scope(.perThread).scopeOnParameters
    }
    var wrongStrategy: Factory<Thing> { self { Thing(id: self.builds.increment()) }.scope(.oneCacheForAll) }
    /// Whether each build of `joinedShared` saw seven other resolutions wait for it.
    let joined = Collector<Bool>()
    /// Builds once seven other resolutions wait for the build.
    var joinedShared: Factory<Thing> {
        self {
            self.joined.append(self.buildWaitersReach(7))
            return Thing(id: self.builds.increment())
        }
        .scope(.perContainer)
    }
    var uncached: Factory<Thing> { self { Thing(id: self.builds.increment()) }.scope(.neverCached) }
    var sharingThing: Factory<Thing> { self { Thing(id: self.builds.increment()) }.scope(.oneCachePerContainer) }
    var sharingOtherThing: Factory<Thing> { self { Thing(id: self.builds.increment()) }.scope(.oneCachePerContainer) }
    var sharingNumber: Factory<Int> { self { self.builds.increment() }.scope(.oneCachePerContainer) }
    var sharingAsyncThing: AsyncFactory<Thing> { self { Thing(id: self.builds.increment()) }.scope(.oneCachePerContainer) }
    /// How many other resolutions `asyncThing`'s next build waits for to join it.
    let asyncJoiners = LockedBox(0)
    var asyncThing: AsyncFactory<Thing> {
        self {
            let joiners = self.asyncJoiners.withLock { $0 }
            try await waitFor("\(joiners) tasks to join the build") { self.manager.buildWaiters >= joiners }
            return Thing(id: self.builds.increment())
        }
        .scope(.perContainer)
    }
}

@Suite struct CacheStrategyTests {
    @Test func aStrategyDefinedOutsideThePackageCachesWhereItSays() {
        let container = PerThreadContainer()
        // The instances themselves are kept: a thread's cache goes when the thread
        // ends, and a freed instance's address (its ObjectIdentifier) is reused.
        let seen = Collector<(thread: Int, first: Thing, again: Thing)>()
        runOnThreads(4) { index in
            let first = container.thing()
            let again = container.thing()
            seen.append((index, first, again))
        }
        // One build per thread, each thread always gets its own.
        #expect(container.builds.value == 4)
        #expect(seen.values.allSatisfy { $0.first === $0.again })
        #expect(Set(seen.values.map { ObjectIdentifier($0.first) }).count == 4)
    }

    @Test func threadsThatMissAtOnceShareOneBuild() {
        let container = PerThreadContainer()
        let seen = Collector<ObjectIdentifier>()
        runOnThreads(8) { _ in seen.append(ObjectIdentifier(container.joinedShared())) }
        #expect(container.joined.values == [true], "the other seven threads never waited for the build")
        #expect(container.builds.value == 1)
        #expect(Set(seen.values).count == 1)
    }

    @Test func resetsAndRegisterEmptyTheStrategysCaches() {
        let container = PerThreadContainer()
        let first = container.thing()
        #expect(container.thing() === first)

        container.manager.reset(options: .scope)
        let afterContainerReset = container.thing()
        #expect(afterContainerReset !== first)

        container.manager.reset(scope: .perThread)
        let afterScopeReset = container.thing()
        #expect(afterScopeReset !== afterContainerReset)

        container.thing.reset(.scope)
        let afterFactoryReset = container.thing()
        #expect(afterFactoryReset !== afterScopeReset)

        container.thing.register { Thing(id: -1) }
        #expect(container.thing().id == -1)
        #expect(container.thing() === container.thing())
    }

    @Test func popEmptiesTheStrategysCaches() {
        let container = PerThreadContainer()
        container.manager.push()
        let pushed = container.thing()
        container.manager.pop()
        #expect(container.thing() !== pushed)
    }

    @Test func timeToLiveAndParametersWorkThroughAStrategy() {
        let container = PerThreadContainer()
        let seven = container.perParameter(7)
        #expect(container.perParameter(7) === seven)
        #expect(container.perParameter(8) !== seven)
        #expect(container.perParameter(8).id / 1_000 == 8)
        let expiring = container.thing.timeToLive(0.000_001)
        let old = expiring()
        Thread.sleep(forTimeInterval: 0.001)
        #expect(expiring() !== old)
    }

    #if EXIT_TESTS
    /// The second container is made where the freed one was (its manager at the
    /// freed manager's address): a cache that recognised its owner by address
    /// would take it for the first, and the child would exit cleanly.
    @Test(
        .enabled(
            if: !isAddressSanitized,
            "AddressSanitizer quarantines freed memory: no container is made at the freed one's address"))
    func aCacheOfAFreedContainerIsNotAnotherContainersEvenAtTheSameAddress() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var first: PerThreadContainer? = PerThreadContainer()
            _ = first?.wrongStrategy()
            let freed = first.map { ObjectIdentifier($0.manager) }
            first = nil
            // The allocator hands a freed block out again at once, in practice; the
            // containers that missed are kept, so that they do not free it again.
            var missed: [PerThreadContainer] = []
            for _ in 0..<1_000 {
                let next = PerThreadContainer()
                if ObjectIdentifier(next.manager) == freed {
                    _ = next.wrongStrategy()
                    exit(0)
                }
                missed.append(next)
            }
            FileHandle.standardError.write(Data("no container was made at the freed container's address\n".utf8))
            exit(3)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!output.contains("no container was made at the freed container's address"))
        #expect(output.contains("returned a ScopeCache that another container uses"))
    }
    #endif

    @Test func eachContainerHasItsOwnCaches() {
        let one = PerThreadContainer()
        let two = PerThreadContainer()
        #expect(one.thing() !== two.thing())
        #expect(one.thing() === one.thing())
        #expect(two.thing() === two.thing())
    }

    @Test func aStrategyThatReturnsNoCacheBuildsEveryTime() {
        let container = PerThreadContainer()
        #expect(container.uncached() !== container.uncached())
        #expect(container.builds.value == 2)
    }

    @Test func theStrategyIsAskedWithNoLibraryLockHeld() {
        // A strategy that resolves from the same container would deadlock if the
        // container's lock were held while it runs.
        final class Resolving: CacheStrategy {
            let container: PerThreadContainer
            let cache = ScopeCache()
            init(_ container: PerThreadContainer) { self.container = container }
            func cache(for key: FactoryKey, in container: ContainerManager) -> ScopeCache? {
                _ = self.container.uncached()
                return cache
            }
        }
        let container = PerThreadContainer()
        let scope = Scope(cacheStrategy: Resolving(container))
        let results = Collector<Bool>()
        let finished = finishes(1) { _ in
            let factory = Factory<Thing>(container, key: "resolving") { Thing() }.scope(scope)
            results.append(factory() === factory())
        }
        #expect(finished, "a strategy that resolves deadlocked")
        #expect(results.values == [true])
    }

    /// The build waits until the seven other tasks joined it: all eight were
    /// inside the resolution at once.
    @Test func asyncFactoriesUseTheStrategyAndBuildOnce() async throws {
        let container = PerThreadContainer()
        container.asyncJoiners.withLock { $0 = 7 }
        let ids = try await withAsyncWatchdog("eight tasks did not get their instance") {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { ObjectIdentifier(try await container.asyncThing()) } }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
        }
        #expect(ids.count == 1)
        #expect(container.builds.value == 1)
        container.asyncJoiners.withLock { $0 = 0 }
        container.manager.reset(options: .scope)
        #expect(try await container.asyncThing().id == 2)
    }

    #if EXIT_TESTS
    @Test func aCacheReturnedForTwoContainersStopsNamingTheFactory() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let one = PerThreadContainer()
            let two = PerThreadContainer()
            _ = one.wrongStrategy()
            _ = two.wrongStrategy()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "FactoryCore: the CacheStrategy of PerThreadContainer.wrongStrategy<Thing>'s scope returned a ScopeCache "
                    + "that another container uses; return a separate ScopeCache for each container"))
    }
    #endif

    // A cache holds one factory's instances: read as another factory's, it would
    // be an instance of another type (or kind) under the wrong key.
    #if EXIT_TESTS
    @Test(arguments: ["another type", "same type", "async"])
    func aCacheReturnedForTwoFactoriesStopsNamingBoth(_ second: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [second] in
            let container = PerThreadContainer()
            _ = container.sharingThing()
            switch second {
            case "another type": _ = container.sharingNumber()
            case "same type": _ = container.sharingOtherThing()
            default: _ = try? await container.sharingAsyncThing()
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("FactoryCore: the CacheStrategy of PerThreadContainer.sharing"))
        #expect(output.contains("returned a ScopeCache that PerThreadContainer.sharingThing<Thing> uses"))
    }
    #endif
}

/// Whether AddressSanitizer instruments this process.
private var isAddressSanitized: Bool {
    #if canImport(Darwin)
    let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
    let everyImage: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everyImage, "__asan_init") != nil
}
