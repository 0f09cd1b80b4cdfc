import FactoryScopes
import FactoryTestSupport
import Testing

final class SingletonContainer: SharedContainer {
    static let shared = SingletonContainer()
    let manager = ContainerManager()
}

final class OtherSingletonContainer: SharedContainer {
    static let shared = OtherSingletonContainer()
    let manager = ContainerManager()
}

private let singletonBuilds = Counter()

extension SingletonContainer {
    var single: Factory<Thing> { self { Thing() }.singleton }
    var counted: Factory<Thing> {
        self {
            singletonBuilds.increment()
            pause(milliseconds: 50)
            return Thing()
        }.singleton
    }
}

extension OtherSingletonContainer {
    var single: Factory<Thing> { self { Thing() }.singleton }
}

/// Runs `body` with singleton storage of its own, as FactoryTesting's trait does,
/// so that other suites resetting singletons cannot disturb these assertions.
/// Containers created inside `body` use that storage.
private func isolatedSingletons(_ body: () -> Void) {
    ScopeStorage.$taskSingletons.withValue(ScopeStorage()) { body() }
}

@Suite struct SingletonTests {
    @Test func oneInstanceAcrossContainerInstances() {
        isolatedSingletons {
            let first = SingletonContainer().single()
            #expect(SingletonContainer().single() === first)
        }
    }

    @Test func sharedContainersUseTheProcessStorage() {
        #expect(SingletonContainer.shared.manager.singletons === ScopeStorage.processSingletons)
        isolatedSingletons {
            #expect(SingletonContainer().manager.singletons !== ScopeStorage.processSingletons)
        }
    }

    @Test func containerTypesNeverShareASingleton() {
        isolatedSingletons {
            #expect(SingletonContainer().single() !== OtherSingletonContainer().single())
        }
    }

    @Test func containerResetLeavesSingletonsUnlessNamed() {
        isolatedSingletons {
            let container = SingletonContainer()
            let first = container.single()
            container.manager.reset()
            #expect(container.single() === first)
            container.manager.reset(options: .singletons)
            #expect(container.single() !== first)
        }
    }

    @Test func singletonResetDropsAll() {
        isolatedSingletons {
            let first = SingletonContainer().single()
            Scope.singleton.reset()
            #expect(SingletonContainer().single() !== first)
            let second = SingletonContainer().single()
            SingletonContainer().manager.reset(scope: .singleton)
            #expect(SingletonContainer().single() !== second)
        }
    }

    @Test func registerDropsTheSingleton() {
        isolatedSingletons {
            let container = SingletonContainer()
            let first = container.single()
            container.single.register { Thing(id: 5) }
            #expect(container.single().id == 5)
            #expect(container.single() !== first)
            #expect(SingletonContainer().single() === container.single())
        }
    }

    @Test func builtExactlyOnceUnderContention() {
        isolatedSingletons {
            for _ in 0..<5 {
                Scope.singleton.reset()
                let before = singletonBuilds.value
                let container = SingletonContainer()
                let seen = Collector<ObjectIdentifier>()
                runOnThreads(8) { _ in seen.append(ObjectIdentifier(container.counted())) }
                #expect(singletonBuilds.value - before == 1)
                #expect(Set(seen.values).count == 1)
            }
        }
    }
}
