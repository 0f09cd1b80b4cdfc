import FactoryScopes
import FactoryTestSupport

final class Thing: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

protocol IDProviding: AnyObject, Sendable {}
protocol ValueProviding: AnyObject, Sendable {}
final class CommonService: IDProviding, ValueProviding {}

final class ProtocolConsumer: Sendable {
    let ids: any IDProviding
    let values: any ValueProviding
    init(ids: any IDProviding, values: any ValueProviding) {
        self.ids = ids
        self.values = values
    }
}

/// A parameter whose hash always collides.
struct Colliding: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

extension Scope {
    static let session = Cached()
    static let other = Cached()
}

/// Each test gets its own container type instance; singletons are keyed by
/// container type, so scope tests use this type to stay away from other targets.
final class ScopeContainer: SharedContainer {
    static let shared = ScopeContainer()
    let manager = ContainerManager()
    /// Counts closure runs per instance of this container.
    let builds = Counter()
    /// What the contended factories' builds saw: seven other resolutions waiting for them.
    let overlaps = Overlaps()
}

extension ScopeContainer {
    var unique: Factory<Thing> {
        self {
            self.builds.increment()
            return Thing()
        }
    }
    var cachedThing: Factory<Thing> {
        self {
            self.builds.increment()
            return Thing()
        }.cached
    }
    var sharedThing: Factory<Thing> {
        self {
            self.builds.increment()
            return Thing()
        }.shared
    }
    var sessionThing: Factory<Thing> { self { Thing() }.scope(.session) }
    var otherThing: Factory<Thing> { self { Thing() }.scope(.other) }
    var graphThing: Factory<CommonService> { self { CommonService() }.graph }
    var ids: Factory<any IDProviding> { self { self.graphThing() } }
    var values: Factory<any ValueProviding> { self { self.graphThing() } }
    var consumer: Factory<ProtocolConsumer> { self { ProtocolConsumer(ids: self.ids(), values: self.values()) } }
    var ttlThing: Factory<Thing> { self { Thing() }.cached.timeToLive(0.05) }
    var ttlSingleton: Factory<Thing> { self { Thing() }.singleton.timeToLive(0.05) }
    /// Intervals no test outlives: a hit on these never depends on how fast the machine is.
    var hourThing: Factory<Thing> { self { Thing() }.cached.timeToLive(3600) }
    var hourSingleton: Factory<Thing> { self { Thing() }.singleton.timeToLive(3600) }
    var single: Factory<Thing> { self { Thing() }.singleton }
    var perParameter: ParameterFactory<Int, Thing> { self { Thing(id: $0) }.cached.scopeOnParameters }
    var firstParameterWins: ParameterFactory<Int, Thing> { self { Thing(id: $0) }.cached }
    var colliding: ParameterFactory<Colliding, Thing> { self { Thing(id: $0.value) }.cached.scopeOnParameters }
    /// Its build ends once seven other resolutions from this container wait for it.
    var contendedCached: Factory<Thing> {
        self {
            self.builds.increment()
            self.overlaps.wait("seven resolutions wait for the build") { self.manager.buildWaiters == 7 }
            return Thing()
        }.cached
    }
    /// Its build ends once seven other resolutions from this container wait for it.
    var contendedShared: Factory<Thing> {
        self {
            self.builds.increment()
            self.overlaps.wait("seven resolutions wait for the build") { self.manager.buildWaiters == 7 }
            return Thing()
        }.shared
    }
    var optionalShared: Factory<Thing?> {
        self {
            self.builds.increment()
            return Thing()
        }.shared
    }
    var valueShared: Factory<Int> {
        self {
            self.builds.increment()
            return 1
        }.shared
    }
}
