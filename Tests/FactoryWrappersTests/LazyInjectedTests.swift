import FactoryTestSupport
import FactoryWrappers
import Testing

// The seed's parent/child pair: the parent lazily holds the child, the child
// weakly holds the parent, both `.shared`.
final class ServicesP {
    @LazyInjected(\.servicesC) var service
    let name = "Parent"
    init() {}
    func test() -> String? {
        service.name
    }
}

final class ServicesC {
    @WeakLazyInjected(\.servicesP) var service: ServicesP?
    init() {}
    let name = "Child"
    func test() -> String? {
        service?.name
    }
}

extension Container {
    var servicesP: Factory<ServicesP> { self { ServicesP() }.shared }
    var servicesC: Factory<ServicesC> { self { ServicesC() }.shared }
}

private final class LazyHolder {
    @LazyInjected(\WrapperContainer.counted) var service
}

/// Shared by many threads: a `Sendable` struct may hold the wrapper directly.
private struct SendableLazyHolder: Sendable {
    @LazyInjected(\WrapperContainer.counted) var service
}

/// The documented form for a `Sendable` class, which cannot hold a wrapper in a `var`.
private final class SendableHandler: Sendable {
    let service = LazyInjected(\WrapperContainer.counted)
}

private actor LazyActor {
    @LazyInjected(\.myService) var service
    func serviceID() -> Int { service.id }
    func resolvedID() -> Int? { $service.resolvedOrNil()?.id }
}

@MainActor
private final class MainActorLazyModel {
    @LazyInjected(\.myService) var service
    // `deinit` is nonisolated, so what it needs is declared as a `let`.
    let cleanup = LazyInjected(\WrapperContainer.counted)
    let cleanedUp: Counter
    init(cleanedUp: Counter) { self.cleanedUp = cleanedUp }
    deinit {
        if cleanup.resolvedOrNil() != nil { cleanedUp.increment() }
    }
}

/// The factory reads the very property it is resolving for.
private final class SelfReading: Sendable {
    static let instance = SelfReading()
    let value = LazyInjected(Container.shared.selfReading)
}

extension Container {
    fileprivate var selfReading: Factory<Int> { self { SelfReading.instance.value.wrappedValue + 1 } }
}

@Suite struct LazyInjectedTests {
    @Test func resolvesOnFirstReadNotAtCreation() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            #expect(container.builds.value == 0)
            let first = holder.service
            #expect(container.builds.value == 1)
            #expect(holder.service === first)
            #expect(container.builds.value == 1)
        }
    }

    @Test func theSeedParentAndChildFindEachOther() {
        withFreshContainer { container in
            let parent = container.servicesP()
            #expect(parent.$service.resolvedOrNil() == nil)
            #expect(parent.test() == "Child")
            #expect(parent.service.test() == "Parent")
            #expect(parent.service.service === parent)
            #expect(container.servicesC() === parent.service)
        }
    }

    @Test func resolvedOrNilDoesNotResolve() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            #expect(holder.$service.resolvedOrNil() == nil)
            #expect(container.builds.value == 0)
            let service = holder.service
            #expect(holder.$service.resolvedOrNil() === service)
        }
    }

    @Test func resolvedOrNilKeepsAResolvedNil() {
        withFreshContainer { _ in
            struct Holder {
                @LazyInjected(\.optionalService) var service
            }
            let holder = Holder()
            #expect(holder.service == nil)
            let resolved = holder.$service.resolvedOrNil()
            #expect(resolved != nil)
            #expect(resolved! == nil)
        }
    }

    @Test func anOverrideRegisteredAfterCreationButBeforeTheFirstReadIsUsed() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            container.counted.register { MyService(id: 77) }
            #expect(holder.service.id == 77)
        }
    }

    @Test func anOverrideRegisteredAfterTheFirstReadWaitsForResolve() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            #expect(holder.service.id == 1)
            container.counted.register { MyService(id: 77) }
            #expect(holder.service.id == 1)
            holder.$service.resolve()
            #expect(holder.service.id == 77)
        }
    }

    @Test func resolveWithResetScopeBuildsANewCachedInstance() {
        withFreshWrapperContainer { container in
            struct Holder {
                @LazyInjected(\WrapperContainer.cachedCounted) var service
            }
            let holder = Holder()
            let first = holder.service
            #expect(holder.$service.resolve() === first)
            let second = holder.$service.resolve(reset: .scope)
            #expect(second !== first)
            #expect(holder.service === second)
            #expect(container.builds.value == 2)
        }
    }

    @Test func resolveBeforeTheFirstReadCountsAsTheFirstResolution() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            let resolved = holder.$service.resolve()
            #expect(holder.service === resolved)
            #expect(container.builds.value == 1)
        }
    }

    @Test func assigningReplacesTheValueAndSkipsResolution() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            let mine = MyService(id: 500)
            holder.service = mine
            #expect(holder.service === mine)
            #expect(holder.$service.resolvedOrNil() === mine)
            #expect(container.builds.value == 0)
        }
    }

    @Test func copiesShareTheResolvedValue() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            let projected = holder.$service
            let first = projected.wrappedValue
            #expect(holder.service === first)
            projected.resolve()
            #expect(holder.service.id == 2)
            #expect(container.builds.value == 2)
        }
    }

    @Test func theProjectedFactoryIsTheContainersFactory() {
        withFreshWrapperContainer { container in
            let holder = LazyHolder()
            #expect(holder.$service.factory.key == container.counted.key)
        }
    }

    @Test func resolvesFromTheContainerBoundAtCreationEvenWhenReadElsewhere() {
        let holder = withFreshWrapperContainer { container in
            container.counted.register { MyService(id: 31) }
            return LazyHolder()
        }
        // Outside the task-local binding, the holder still uses its own container.
        #expect(holder.service.id == 31)
    }

    /// Eight threads read the property for the first time at once. The factory's
    /// closure, run by the first read, returns only once the other seven reads wait
    /// in the property: each has begun and none has returned, and (Linux) each of
    /// those threads is asleep, which, as it does nothing else before its read, it can
    /// only be in the read (``Callers``).
    @Test func concurrentFirstReadsResolveExactlyOnce() throws {
        for round in 0..<10 {
            let container = WrapperContainer()
            let readers = Callers()
            let overlaps = Overlaps()
            container.counted.register {
                overlaps.wait("seven reads wait in the lazy property") { readers.othersWaitInside(7) }
                return MyService(id: container.builds.increment())
            }
            let holder = WrapperContainer.$shared.withValue(container) { SendableLazyHolder() }
            let seen = Collector<ObjectIdentifier>()
            runOnThreads(8) { _ in
                readers.enter()
                let service = holder.service
                readers.leave()
                seen.append(ObjectIdentifier(service))
            }
            overlaps.expect(1)
            #expect(container.builds.value == 1, "round \(round)")
            #expect(seen.values.count == 8)
            #expect(Set(seen.values).count == 1)
            #expect(seen.values.first == ObjectIdentifier(holder.service))
            if overlaps.anyMissed { break }
        }
    }

    /// Overlapping as ``concurrentFirstReadsResolveExactlyOnce()``'s reads do.
    @Test func concurrentFirstReadsThroughALetResolveExactlyOnce() {
        let container = WrapperContainer()
        let readers = Callers()
        let overlaps = Overlaps()
        container.counted.register {
            overlaps.wait("seven reads wait in the lazy property") { readers.othersWaitInside(7) }
            return MyService(id: container.builds.increment())
        }
        let handler = WrapperContainer.$shared.withValue(container) { SendableHandler() }
        let seen = Collector<ObjectIdentifier>()
        runOnThreads(8) { _ in
            readers.enter()
            let service = handler.service.wrappedValue
            readers.leave()
            seen.append(ObjectIdentifier(service))
        }
        overlaps.expect(1)
        #expect(container.builds.value == 1)
        #expect(seen.values.count == 8)
        #expect(Set(seen.values).count == 1)
    }

    @Test func lazyPropertiesReadInsideFactoriesOnManyThreadsAllFinish() {
        // Eight properties on eight threads share a cached factory whose closure
        // reads another lazily injected property: nested latches, no deadlock.
        let container = WrapperContainer()
        let inner = WrapperContainer.$shared.withValue(container) { SendableLazyHolder() }
        container.cachedCounted.register {
            pause(milliseconds: 5)
            return MyService(id: inner.service.id + 1000)
        }
        let holders = WrapperContainer.$shared.withValue(container) {
            (0..<8).map { _ in LazyInjected(\WrapperContainer.cachedCounted) }
        }
        let seen = Collector<Int>()
        runOnThreads(8) { index in seen.append(holders[index].wrappedValue.id) }
        #expect(Set(seen.values) == [1001])
        #expect(container.builds.value == 1)
    }

    @Test func worksInActors() async {
        let worker = withFreshContainer { container in
            container.myService.register { MyService(id: 14) }
            return LazyActor()
        }
        #expect(await worker.resolvedID() == nil)
        #expect(await worker.serviceID() == 14)
        #expect(await worker.resolvedID() == 14)
    }

    @Test @MainActor func worksInMainActorClassesAndTheirDeinit() {
        let cleanedUp = Counter()
        withFreshWrapperContainer { _ in
            var model: MainActorLazyModel? = MainActorLazyModel(cleanedUp: cleanedUp)
            _ = model?.cleanup.wrappedValue
            model = nil
        }
        #expect(cleanedUp.value == 1)
    }

    #if EXIT_TESTS
    @Test func aPropertyReadFromItsOwnFactoryIsReportedAsACycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SelfReading.instance.value.wrappedValue
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("circular dependency chain - Container.selfReading<Int> > Container.selfReading<Int>"))
    }
    #endif
}

// An instance that `@LazyInjected` drops (replaced through the setter or by a
// refresh) is released with the property's lock free: its `deinit` is user code
// and may read the very property. Each test runs on a watched thread, so a
// deadlock fails it instead of hanging the run.

private protocol Dropped: AnyObject, Sendable {}

/// Reads its holder's property when it goes.
private final class ReadsItsHolderOnDeinit: Dropped {
    let holder: DroppingHolder
    let seen: Counter
    init(holder: DroppingHolder, seen: Counter) {
        self.holder = holder
        self.seen = seen
    }
    deinit {
        if holder.service.resolvedOrNil() !== self { seen.increment() }
    }
}

private final class DroppingHolder: Sendable {
    let service = LazyInjected(\WrapperContainer.dropped)
    let seen = Counter()
}

extension WrapperContainer {
    fileprivate var dropped: Factory<any Dropped> { self { PlainDropped() } }
}

/// A plain object, for the builds that replace the one that reads its holder.
private final class PlainDropped: Dropped {}

@Suite struct LazyInjectedReleaseTests {
    @Test func anInstanceReplacedThroughTheSetterIsReleasedUnlocked() {
        let finished = finishes(1) { _ in
            withFreshWrapperContainer { _ in
                let holder = DroppingHolder()
                holder.service.wrappedValue = ReadsItsHolderOnDeinit(holder: holder, seen: holder.seen)
                holder.service.wrappedValue = PlainDropped()
                precondition(holder.seen.value == 1)
            }
        }
        #expect(finished)
    }

    @Test func anInstanceReplacedByARefreshIsReleasedUnlocked() {
        let finished = finishes(1) { _ in
            withFreshWrapperContainer { _ in
                let holder = DroppingHolder()
                holder.service.wrappedValue = ReadsItsHolderOnDeinit(holder: holder, seen: holder.seen)
                _ = holder.service.resolve()
                precondition(holder.seen.value == 1)
            }
        }
        #expect(finished)
    }
}
