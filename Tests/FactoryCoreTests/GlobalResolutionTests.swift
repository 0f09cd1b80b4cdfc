import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct GlobalResolutionTests {
    @Test func resolveUsesTheTaskLocalSharedContainer() {
        let container = Container()
        container.greeting.register { MockGreeting("scoped") }
        Container.$shared.withValue(container) {
            #expect(resolve(\.greeting).text == "scoped")
            #expect(dependency(\.greeting).text == "scoped")
            #expect(resolve(\.numbered, parameter: 3).id == 3)
            #expect(dependency(\.numbered, parameter: 4).id == 4)
        }
    }

    @Test func taskLocalContainerFollowsChildTasks() async {
        let container = Container()
        container.service.register { Service(id: 77) }
        await Container.$shared.withValue(container) {
            let id = await Task { Container.shared.service().id }.value
            #expect(id == 77)
        }
    }

    @Test func resolvesFromCustomSharedContainers() {
        #expect(resolve(\OrderContainer.service).id == 7)
        #expect(dependency(\OrderContainer.numbered, parameter: 2).id == 20)
        #expect(resolve(\OrderContainer.numbered, parameter: 3).id == 30)
        #expect(dependency(\OrderContainer.greeting).text == "hello")
    }
}
