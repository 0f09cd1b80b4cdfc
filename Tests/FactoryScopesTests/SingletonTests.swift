import FactoryScopes
import FactoryTestSupport
import Testing

final class SingletonContainer: SharedContainer {
    static let shared = SingletonContainer()
    let manager = ContainerManager()
    /// Whether each build of `counted` saw seven other resolutions wait for it.
    let joined = Collector<Bool>()
}

final class OtherSingletonContainer: SharedContainer {
    static let shared = OtherSingletonContainer()
    let manager = ContainerManager()
}

private let singletonBuilds = Counter()

extension SingletonContainer {
    var single: Factory<Thing> { self { Thing() }.singleton }
    /// Builds once seven other resolutions from this container wait for the build.
    var counted: Factory<Thing> {
        self {
            singletonBuilds.increment()
            self.joined.append(self.buildWaitersReach(7))
            return Thing()
        }.singleton
    }
}

extension OtherSingletonContainer {
    var single: Factory<Thing> { self { Thing() }.singleton }
}

@Suite struct SingletonTests {
    @Test func oneInstanceAcrossContainerInstances() {
        withIsolatedSingletons { isolate in
            let first = isolate(SingletonContainer()).single()
            #expect(isolate(SingletonContainer()).single() === first)
        }
    }

    @Test func containersUseTheProcessStorageUnlessGivenAnother() {
        #expect(SingletonContainer.shared.manager.globalStorage === GlobalStorage.process)
        #expect(SingletonContainer().manager.globalStorage === GlobalStorage.process)
        withIsolatedSingletons { isolate in
            #expect(SingletonContainer().manager.globalStorage === GlobalStorage.process)
            #expect(isolate(SingletonContainer()).manager.globalStorage !== GlobalStorage.process)
        }
    }

    @Test func containerTypesNeverShareASingleton() {
        withIsolatedSingletons { isolate in
            #expect(isolate(SingletonContainer()).single() !== isolate(OtherSingletonContainer()).single())
        }
    }

    @Test func containerResetLeavesSingletonsUnlessNamed() {
        withIsolatedSingletons { isolate in
            let container = isolate(SingletonContainer())
            let first = container.single()
            container.manager.reset()
            #expect(container.single() === first)
            container.manager.reset(options: .singletons)
            #expect(container.single() !== first)
        }
    }

    @Test func singletonResetDropsAll() {
        withIsolatedSingletons { isolate in
            let first = isolate(SingletonContainer()).single()
            Scope.singleton.reset()
            #expect(isolate(SingletonContainer()).single() !== first)
        }
    }

    @Test func aContainerDoesNotResetSingletons() {
        // As in Factory: a container does not own singletons.
        withIsolatedSingletons { isolate in
            let container = isolate(SingletonContainer())
            let first = container.single()
            container.manager.reset(scope: .singleton)
            #expect(container.single() === first)
        }
    }

    @Test func aRegisteredSingletonStaysWithItsContainer() {
        withIsolatedSingletons { isolate in
            let app = isolate(SingletonContainer())
            let request = isolate(SingletonContainer())
            let real = app.single()
            request.single.register { Thing(id: 5) }
            #expect(request.single().id == 5)
            #expect(request.single() === request.single())
            // Another instance neither sees the mock nor loses the definition's singleton.
            #expect(app.single() === real)
            #expect(isolate(SingletonContainer()).single() === real)
            request.single.reset(.registration)
            #expect(request.single() === real)
        }
    }

    @Test func builtExactlyOnceUnderContention() throws {
        try withIsolatedSingletons { isolate in
            for _ in 0..<5 {
                Scope.singleton.reset()
                let before = singletonBuilds.value
                let container = isolate(SingletonContainer())
                let seen = Collector<ObjectIdentifier>()
                runOnThreads(8) { _ in seen.append(ObjectIdentifier(container.counted())) }
                try #require(container.joined.values == [true], "the other seven threads never waited for the build")
                #expect(singletonBuilds.value - before == 1)
                #expect(Set(seen.values).count == 1)
            }
        }
    }
}
