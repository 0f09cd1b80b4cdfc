import FactoryCore
import FactoryTestSupport
import Testing

@Suite struct OnceTests {
    @Test func definitionsNeverOverwriteAStartUpRegistration() {
        let container = Container()
        container.service.register { Service(id: 1) }.once()
        let definition = Factory<Service>(container, key: "service") { Service(id: 2) }.once()
        #expect(definition().id == 1)
        #expect(container.service().id == 1)
    }

    @Test func modifiersAfterOncePersist() {
        let container = Container()
        let seen = Counter()
        container.service.once().decorator { _ in seen.increment() }
        _ = container.service()
        #expect(seen.value == 1)
    }
}
