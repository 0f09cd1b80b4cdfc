import FactoryScopes
import FactoryTestSupport
import Testing

// A second process-wide scope beside `.singleton`: its instances are shared across
// containers like a singleton's, kept apart from `.singleton`'s, and reset on their own.

extension Scope {
    fileprivate static let sessionWide = Singleton()
}

private final class SessionContainer: ManagedContainer {
    let manager = ContainerManager()

    var inSession: Factory<Thing> { self { Thing(id: 1) }.scope(.sessionWide) }
    var inSingleton: Factory<Thing> { self { Thing(id: 2) }.singleton }
    /// One factory whose scope a container may change at run time.
    var either: Factory<Thing> { self { Thing(id: 3) }.singleton }
}

@Suite struct ProcessWideScopesTests {
    @Test func aSecondProcessWideScopeSharesItsInstanceAcrossContainers() {
        withIsolatedSingletons { isolate in
            let first = isolate(SessionContainer()).inSession()
            #expect(isolate(SessionContainer()).inSession() === first)
            #expect(isolate(SessionContainer()).inSingleton() !== first)
        }
    }

    /// Each scope resets only what it keeps: `Scope.singleton.reset()` leaves the session's instances, and the
    /// session's `reset()` leaves the singletons.
    @Test func eachProcessWideScopeResetsOnItsOwn() {
        withIsolatedSingletons { isolate in
            let container = isolate(SessionContainer())
            let session = container.inSession()
            let singleton = container.inSingleton()

            Scope.singleton.reset()
            #expect(container.inSession() === session)
            #expect(container.inSingleton() !== singleton)

            let newSingleton = container.inSingleton()
            Scope.sessionWide.reset()
            #expect(container.inSession() !== session)
            #expect(container.inSingleton() === newSingleton)
        }
    }

    /// The same factory in two process-wide scopes, one per container: each scope keeps its own instance, so
    /// resolving from one container never drops the other's (one place for both would evict on every switch).
    @Test func oneFactoryInTwoProcessWideScopesKeepsTwoInstances() {
        withIsolatedSingletons { isolate in
            let inSingleton = isolate(SessionContainer())
            let inSession = isolate(SessionContainer())
            inSession.either.scope(.sessionWide)

            let a = inSingleton.either()
            let b = inSession.either()
            #expect(a !== b)
            for _ in 0..<3 {
                #expect(inSingleton.either() === a)
                #expect(inSession.either() === b)
            }
            #expect(isolate(SessionContainer()).either() === a)
        }
    }
}
