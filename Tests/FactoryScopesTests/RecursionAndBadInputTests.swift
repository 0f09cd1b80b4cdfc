import FactoryScopes
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

final class MemoContainer: ManagedContainer {
    let manager = ContainerManager()
    let builds = Counter()

    /// Memoised Fibonacci: each `fibonacci(n)` is built once and resolves `n - 1` and `n - 2`.
    var fibonacci: ParameterFactory<Int, Int> {
        self { n in
            self.builds.increment()
            return n < 2 ? n : self.fibonacci(n - 1) + self.fibonacci(n - 2)
        }.cached.scopeOnParameters
    }

    var perDouble: ParameterFactory<Double, Thing> {
        self { _ in
            self.builds.increment()
            return Thing()
        }.cached.scopeOnParameters
    }

    var asyncPerDouble: AsyncParameterFactory<Double, Thing> {
        self { _ in
            self.builds.increment()
            return Thing()
        }.cached.scopeOnParameters
    }
}

/// Two cached factories, each resolving the other; each closure first waits until
/// the other thread has started its build, so the builds wait for each other.
final class CrossThreadContainer: ManagedContainer {
    let manager = ContainerManager()
    let leftStarted = Signal()
    let rightStarted = Signal()

    var left: Factory<Link> {
        self {
            self.leftStarted.raise()
            self.rightStarted.wait()
            return Link(self.right())
        }.cached
    }
    var right: Factory<Link> {
        self {
            self.rightStarted.raise()
            self.leftStarted.wait()
            return Link(self.left())
        }.cached
    }
}

@Suite struct RecursionAndBadInputTests {
    @Test func aMemoisedRecursiveFactoryBuildsEachParameterOnce() {
        let container = MemoContainer()
        #expect(container.fibonacci(40) == 102_334_155)
        #expect(container.builds.value == 41)
        #expect(container.fibonacci(30) == 832_040)
        #expect(container.builds.value == 41)
    }

    @Test func aParameterNotEqualToItselfIsBuiltEachTimeAndLeavesNothingBehind() {
        let container = MemoContainer()
        let things = (0..<2_000).map { _ in container.perDouble(.nan) }
        #expect(Set(things.map(ObjectIdentifier.init)).count == 2_000)
        #expect(container.builds.value == 2_000)
        let key = FactoryKey(
            name: "perDouble", valueType: Thing.self, parameterType: Double.self, containerType: MemoContainer.self)
        #expect(container.manager.parameterEntryCount(key) == 0)
        // Ordinary parameters are still cached.
        #expect(container.perDouble(1.5) === container.perDouble(1.5))
        #expect(container.manager.parameterEntryCount(key) == 1)
        #expect(container.manager.parameterIndexMatchesEntries(key))
    }

    /// The async twin: its parameters become cache keys as a synchronous factory's do.
    @Test func anAsyncParameterNotEqualToItselfIsBuiltEachTimeAndLeavesNothingBehind() async throws {
        let container = MemoContainer()
        var things: [Thing] = []
        for _ in 0..<200 { things.append(try await container.asyncPerDouble(.nan)) }
        #expect(Set(things.map(ObjectIdentifier.init)).count == 200)
        #expect(container.builds.value == 200)
        let key = container.asyncPerDouble.registration.key
        #expect(container.manager.parameterEntryCount(key) == 0)
        let kept = try await container.asyncPerDouble(1.5)
        #expect(try await container.asyncPerDouble(1.5) === kept)
        #expect(container.manager.parameterEntryCount(key) == 1)
        #expect(container.manager.parameterIndexMatchesEntries(key))
    }

    #if EXIT_TESTS
    @Test func aCycleAcrossTwoThreadsStopsTheProgramNamingBothChains() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = CrossThreadContainer()
            startThread { _ = container.left() }
            startThread { _ = container.right() }
            // The watchdog: if the threads deadlock instead, the child exits cleanly and the test fails.
            sleep(UInt32(watchdogBound))
            exit(0)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("FactoryCore: circular dependency across threads or tasks (each waits for a build of the other)"))
        #expect(
            output.contains(
                "CrossThreadContainer.left<Link> > CrossThreadContainer.right<Link> (being built by thread "))
        #expect(
            output.contains(
                "CrossThreadContainer.right<Link> > CrossThreadContainer.left<Link> (being built by thread "))
    }
    #endif
}
