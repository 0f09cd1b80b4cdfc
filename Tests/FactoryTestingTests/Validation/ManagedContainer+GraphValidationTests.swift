import FactoryTestSupport
import Testing

@testable import FactoryTesting

@Suite(.container { $0.manager.promiseTriggersError = true })
struct GraphValidationTests {
    @Test func aHealthyGraphIsValid() {
        let report = Container.shared.graphReport(\.greeter, \.number, \.healthy, \.singletonBox)
        #expect(report.isValid)
        #expect(
            report.entries == [
                "Container.greeter<Greeter>", "Container.number<Int>",
                "Container.healthy<String>", "Container.singletonBox<Box>",
            ])
    }

    @Test func everyFailureAndEveryCycleIsReportedInOneRun() throws {
        let report = Container.shared.graphReport(
            \.cycleA, \.healthy, \.selfCycle, \.usesPromise, \.cycleB, \.dependsOnCycle, \.label, \.notAFactory)
        #expect(!report.isValid)
        try #require(report.failures.count == 7)
        #expect(
            report.failures.map(\.kind) == [
                .circularDependency, .circularDependency, .unregisteredPromise, .circularDependency,
                .circularDependency, .missingParameter, .notAFactory,
            ])
        #expect(
            report.failures.map(\.entry).dropLast() == [
                "Container.cycleA<CycleA>", "Container.selfCycle<Box>", "Container.usesPromise<String>",
                "Container.cycleB<CycleB>", "Container.dependsOnCycle<String>", "Container.label<MockGreeter>",
            ])
        // Key paths to computed properties do not carry their names at run time.
        #expect(report.failures.last?.entry.hasPrefix("\\Container.") == true)
        let first = report.failures[0]
        #expect(
            first.message == "FactoryCore: circular dependency chain - Container.cycleA<CycleA> > "
                + "Container.cycleB<CycleB> > Container.cycleA<CycleA>")
        #expect(
            first.cycle.map(\.description) == [
                "Container.cycleA<CycleA>", "Container.cycleB<CycleB>", "Container.cycleA<CycleA>",
            ])
        // cycleA, cycleB and dependsOnCycle all run into one cycle; selfCycle is the other.
        #expect(report.cycles.count == 2)
        #expect(
            report.failures[2].chain.map(\.description) == [
                "Container.usesPromise<String>", "Container.promisedGreeter<Optional<Greeter>>",
            ])
        #expect(report.failures[4].chain.first?.description == "Container.dependsOnCycle<String>")
    }

    @Test func validateGraphFailsTheTestOncePerFailure() throws {
        let issues = LockedBox<[String]>([])
        withKnownIssue("Graph validation reports the cycle, the self-cycle and the unregistered promise") {
            Container.shared.validateGraph(\.cycleA, \.healthy, \.selfCycle, \.usesPromise)
        } matching: { issue in
            issues.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let recorded = issues.withLock { $0 }
        try #require(recorded.count == 3)
        // One issue per failure, in the order of the entries, each naming its entry and chain.
        #expect(
            recorded[0] == "Graph validation: Container.cycleA<CycleA>: FactoryCore: circular dependency chain - "
                + "Container.cycleA<CycleA> > Container.cycleB<CycleB> > Container.cycleA<CycleA>")
        #expect(
            recorded[1] == "Graph validation: Container.selfCycle<Box>: FactoryCore: circular dependency chain - "
                + "Container.selfCycle<Box> > Container.selfCycle<Box>")
        #expect(
            recorded[2].hasPrefix(
                "Graph validation: Container.usesPromise<String>: FactoryCore: "
                    + "Container.promisedGreeter<Optional<Greeter>> was promised but nothing is registered"))
    }

    @Test func cyclesThroughSingletonsDoNotBlockLaterEntries() {
        // The parked thread leaves singleton builds behind; later entries must not wait on them.
        let report = Container.shared.graphReport(\.singletonCycleA, \.singletonCycleB, \.singletonCycleA, \.healthy)
        #expect(report.failures.map(\.kind) == [.circularDependency, .circularDependency, .circularDependency])
        #expect(report.cycles.count == 1)
        #expect(Container.shared.healthy() == "live0")
    }

    @Test func cyclesAreFoundEvenWithCycleCheckingOff() {
        Container.shared.manager.circularDependencyTesting = false
        let report = Container.shared.graphReport(\.cycleA)
        #expect(report.failures.map(\.kind) == [.circularDependency])
    }

    @Test func parameterFactoriesAreListedWithAParameter() {
        Container.shared.label.register { name in
            _ = Container.shared.cycleA()
            return MockGreeter(name: name)
        }
        let report = Container.shared.graphReport([.factory(\.greeter), .factory(\.label, parameter: "x")])
        #expect(report.failures.map(\.entry) == ["Container.label<MockGreeter>"])
        #expect(report.failures.map(\.kind) == [.circularDependency])
    }

    @Test func factoriesResolveWithTheTestsContainer() {
        let container = Container.shared
        let seen = LockedBox<[ObjectIdentifier]>([])
        container.probe.register {
            seen.withLock { $0.append(ObjectIdentifier(Container.shared)) }
            return 0
        }
        let report = container.validateGraph(\.probe)
        #expect(report.isValid)
        #expect(seen.withLock { $0 } == [ObjectIdentifier(container)])
    }

    /// A resolution that never ends (a deadlock) fails as a misuse naming its
    /// factory once the validator's patience runs out, instead of blocking the
    /// test for good; validation stops there.
    @Test func aResolutionThatNeverEndsFailsNamingItsFactory() {
        let container = Container.shared
        let release = Signal()
        defer { release.raise() }
        container.probe.register {
            _ = release.wait()
            return 0
        }
        // First in the list: whatever the machine's speed, the entry under way when
        // the patience runs out is this one.
        let entries: [GraphEntry<Container>] = [.factory(\.probe), .factory(\.greeter), .factory(\.number)]
        let report = GraphValidator.validate(entries.map { $0.prepare(container) }, in: container, patience: 0.2)
        #expect(report.failures.map(\.kind) == [.misuse])
        #expect(report.failures.map(\.entry) == ["Container.probe<Int>"])
        #expect(
            report.failures.first?.message
                == "FactoryTesting: Container.probe<Int> did not finish resolving within 0.2 s: a deadlock, a factory "
                + "that waits for the main actor while validation blocks it, or one that takes that long; validation "
                + "stopped there and did not resolve the 2 entries after it")
    }

    @Test func validationLeavesNoHookOnTheCallersThread() {
        _ = Container.shared.graphReport(\.cycleA)
        #expect(!ResolutionContext.current.isValidating)
    }
}
