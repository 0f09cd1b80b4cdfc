import FactoryTestSupport
import FactoryWrappers
import Testing

/// A container in type-based mode. Its `shared` is task-local so each test binds its own.
private final class TypedContainer: SharedContainer, Resolving {
    @TaskLocal static var shared = TypedContainer()
    let manager = ContainerManager()
}

/// A type nothing ever registers.
private struct Unregistered: Sendable {}

private struct TypedHolder {
    @InjectedType(TypedContainer.shared) var service: (any MyServiceType)?
    @InjectedType(TypedContainer.shared) var concrete: MyService?
    @InjectedType(TypedContainer.shared) var missing: Unregistered?
}

@Suite struct InjectedTypeTests {
    @Test func resolvesTheRegisteredTypeWhenTheObjectIsCreated() {
        let container = TypedContainer()
        container.register { MyService(id: 8) as any MyServiceType }
        let holder = TypedContainer.$shared.withValue(container) { TypedHolder() }
        #expect(holder.service?.id == 8)
        container.register { MyService(id: 9) as any MyServiceType }
        #expect(holder.service?.id == 8)
    }

    @Test func isNilWhenNothingIsRegisteredForTheExactType() {
        let container = TypedContainer()
        container.register { MyService(id: 8) as any MyServiceType }
        let holder = TypedContainer.$shared.withValue(container) { TypedHolder() }
        #expect(holder.concrete == nil)
        #expect(holder.missing == nil)
    }

    @Test func isNilForAContainerThatIsNotResolving() {
        struct Holder {
            @InjectedType(PlainContainer.shared) var service: MyService?
        }
        #expect(Holder().service == nil)
    }

    /// `Container` resolves by type here (see the conformance below): the holder
    /// gets what the bound `Container.shared` has registered, and nothing from
    /// another instance.
    @Test func theDefaultInitializerUsesContainerShared() {
        struct Holder {
            @InjectedType var service: MyService?
        }
        withFreshContainer { container in
            container.register { MyService(id: 3) }
            #expect(Holder().service?.id == 3)
            #expect(Container().resolve(MyService.self) == nil)
        }
        withFreshContainer { _ in
            #expect(Holder().service == nil)
        }
    }

    @Test func assigningReplacesTheValue() {
        var holder = TypedContainer.$shared.withValue(TypedContainer()) { TypedHolder() }
        holder.concrete = MyService(id: 2)
        #expect(holder.concrete?.id == 2)
    }
}

// As an app makes it, for the default initializer's test. A conformance holds in
// the whole process, but nothing else here casts `Container` to `Resolving`.
extension Container: Resolving {}
