import FactoryCore
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

final class AutoContainer: SharedContainer, AutoRegistering {
    static let shared = AutoContainer()
    let manager = ContainerManager()
    let calls = Counter()

    var greeting: Factory<any Greeting> { self { Hello() } }
    var slow: Factory<Service> { self { Service(id: 1) } }

    func autoRegister() {
        calls.increment()
        greeting.register { MockGreeting("auto") }
    }
}

/// A container whose `autoRegister()` returns only once seven other threads are in
/// their first resolution, waiting for it.
final class ContendedAutoContainer: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    let calls = Counter()
    let callers = Callers()
    let overlaps = Overlaps()

    var greeting: Factory<any Greeting> { self { Hello() } }

    func autoRegister() {
        calls.increment()
        overlaps.wait("seven other threads wait for autoRegister()") { callers.othersWaitInside(7) }
        greeting.register { MockGreeting("auto") }
    }
}

@Suite struct AutoRegisteringTests {
    @Test func autoRegisterRunsBeforeTheFirstResolution() {
        let container = AutoContainer()
        #expect(container.greeting().text == "auto")
        _ = container.greeting()
        #expect(container.calls.value == 1)
    }

    @Test func autoRegisterRunsBeforeTheFirstRegistration() {
        let container = AutoContainer()
        container.greeting.register { MockGreeting("test") }
        #expect(container.greeting().text == "test")
        #expect(container.calls.value == 1)
    }

    /// Eight threads resolve a new container at once: `autoRegister()` runs on one of
    /// them and returns only once the other seven wait for it in their resolutions.
    @Test func autoRegisterRunsOnceUnderContention() {
        let container = ContendedAutoContainer()
        let texts = Collector<String>()
        runOnThreads(8) { _ in
            container.callers.enter()
            let text = container.greeting().text
            container.callers.leave()
            texts.append(text)
        }
        container.overlaps.expect(1)
        #expect(container.calls.value == 1)
        #expect(texts.values == Array(repeating: "auto", count: 8))
    }

    @Test func resetRunsItAgainOnNextUse() {
        // As in Factory: a reset removes what autoRegister() registered, and the next use registers it again.
        let container = AutoContainer()
        _ = container.slow()
        container.manager.reset()
        #expect(container.calls.value == 1)
        #expect(container.greeting().text == "auto")
        #expect(container.calls.value == 2)
        container.manager.reset(options: .context)
        #expect(container.greeting().text == "auto")
        #expect(container.calls.value == 2)
    }
}

/// A container whose autoRegister() counts its runs, raises `started` and then
/// waits until `proceed` is raised, so that a test acts while it runs.
final class SlowAutoContainer: ManagedContainer, AutoRegistering {
    let manager = ContainerManager()
    let calls = Counter()
    let started = Signal()
    let proceed = Signal()

    var greeting: Factory<any Greeting> { self { Hello() } }

    func autoRegister() {
        calls.increment()
        started.raise()
        proceed.wait()
        greeting.register { MockGreeting("auto") }
    }
}

@Suite struct AutoRegisteringConcurrencyTests {
    @Test func optionsChangedDuringTheFirstResolutionDoNotRunItTwice() {
        for _ in 0..<10 {
            let container = SlowAutoContainer()
            let texts = Collector<String>()
            startThread { texts.append(container.greeting().text) }
            #expect(container.started.wait())
            // Option changes on other threads while autoRegister() runs.
            #expect(
                finishes(3) { index in
                    for round in 0..<50 {
                        switch index {
                        case 0: container.manager.trace = round.isMultiple(of: 2)
                        case 1: container.manager.defaultScope = round.isMultiple(of: 2) ? nil : .unique
                        default: container.manager.circularDependencyTesting = !round.isMultiple(of: 3)
                        }
                    }
                })
            container.proceed.raise()
            #expect(poll { texts.values.count == 1 })
            container.manager.trace = false
            container.manager.defaultScope = nil
            #expect(container.greeting().text == "auto")
            #expect(container.calls.value == 1, "autoRegister() ran \(container.calls.value) times")
        }
    }

    @Test func aPushBeforeTheFirstResolutionKeepsItsRegistrationsAfterPop() {
        let container = AutoContainer()
        container.manager.push()
        #expect(container.greeting().text == "auto")
        container.greeting.register { MockGreeting("pushed") }
        container.manager.pop()
        #expect(container.greeting().text == "auto")
    }
}

/// Two containers whose `autoRegister()`s each resolve the other's factory, each
/// first waiting until the other has started: on two threads they wait for each other.
final class LeftAutoContainer: SharedContainer, AutoRegistering {
    static let shared = LeftAutoContainer()
    let manager = ContainerManager()
    static let started = Signal()
    var value: Factory<Int> { self { 1 } }
    func autoRegister() {
        Self.started.raise()
        RightAutoContainer.started.wait()
        _ = RightAutoContainer.shared.value()
    }
}

final class RightAutoContainer: SharedContainer, AutoRegistering {
    static let shared = RightAutoContainer()
    let manager = ContainerManager()
    static let started = Signal()
    var value: Factory<Int> { self { 2 } }
    func autoRegister() {
        Self.started.raise()
        LeftAutoContainer.started.wait()
        _ = LeftAutoContainer.shared.value()
    }
}

@Suite struct AutoRegisteringCycleTests {
    #if EXIT_TESTS
    @Test func autoRegistersWaitingForEachOtherOnTwoThreadsStopTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startThread { _ = LeftAutoContainer.shared.value() }
            startThread { _ = RightAutoContainer.shared.value() }
            // The watchdog: a deadlock instead makes the child exit cleanly, and the test fail.
            sleep(UInt32(watchdogBound))
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("circular dependency across threads"))
        #expect(output.contains("LeftAutoContainer.autoRegister<()>"))
        #expect(output.contains("RightAutoContainer.autoRegister<()>"))
    }
    #endif
}
