import FactoryTestSupport
import Synchronization
import Testing

@testable import FactoryTesting

// Catalog validation beyond the fixture package's planted findings
// (Tests/CatalogFixture, scripts/check-catalog.sh): time limits, errors a factory
// recovers from, where samples and containers come from, main-actor factories.

private final class Built: Sendable {}

private struct Unreachable: Error {}

/// What the sampled factories were resolved with.
private let resolvedWith = Mutex<[String]>([])

extension Container {
    fileprivate var catalogNeverFinishes: AsyncFactory<Built> {
        self {
            try await Task.sleep(for: .seconds(3600))
            return Built()
        }
    }

    fileprivate var catalogFlaky: AsyncFactory<Built> {
        self { throw Unreachable() }
    }

    /// Recovers from `catalogFlaky`'s error: nothing to report.
    fileprivate var catalogRecovers: AsyncFactory<Built> {
        self { (try? await self.catalogFlaky()) ?? Built() }
    }

    fileprivate var catalogSync: Factory<Built> {
        self { Built() }
    }

    fileprivate var catalogNamed: ParameterFactory<String, Built> {
        self { name in
            resolvedWith.withLock { $0.append("named \(name)") }
            return Built()
        }
    }

    fileprivate var catalogLabelled: ParameterFactory<String, Built> {
        self { name in
            resolvedWith.withLock { $0.append("labelled \(name)") }
            return Built()
        }
    }

    @MainActor fileprivate var catalogOnMain: Factory<Built> {
        self {
            MainActor.assertIsolated()
            return Built()
        }
    }
}

/// A container without `shared`: its factories need an instance given with `use(_:)`.
private final class CatalogRequestContainer: ManagedContainer {
    let manager = ContainerManager()

    var built: Factory<Built> {
        self { Built() }
    }
}

@Suite(.container { $0.manager.promiseTriggersError = true })
struct FactoryCatalogTests {
    /// Only the factory that never finishes is under the short limit: the next one
    /// is synchronous (no limit), and the async one validated after the time-out
    /// gets the watchdog's bound, so a loaded machine cannot make them time out too.
    @Test func anAsyncFactoryThatNeverFinishesIsReportedAfterTheTimeLimit() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogNeverFinishes", \Container.catalogNeverFinishes, access: .internal)
            $0.factory("Container.catalogSync", \Container.catalogSync, access: .internal)
        }
        let report = catalog.report(asyncTimeLimit: 0.2)
        #expect(report.failures.map(\.kind) == [.timedOut], "\(report)")
        #expect(report.failures.first?.entry == "Container.catalogNeverFinishes<Built>")
        // Validation went on with the next factory, which resolved.
        #expect(report.validation.entries.count == 2)
        // The build left behind does not stop later async validations.
        let next = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogRecovers", \Container.catalogRecovers, access: .internal)
        }
        #expect(next.report(asyncTimeLimit: watchdogBound).isValid)
    }

    @Test func anErrorAFactoryRecoversFromIsNotReported() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogRecovers", \Container.catalogRecovers, access: .internal)
        }
        #expect(catalog.report().isValid)
        let flaky = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogFlaky", \Container.catalogFlaky, access: .internal)
        }
        let failure = flaky.report().failures.first
        #expect(failure?.kind == .thrownError)
        #expect(failure?.chain.map(\.description) == ["Container.catalogFlaky<Built>"])
        #expect(failure?.message == "FactoryTesting: Container.catalogFlaky<Built> threw Unreachable()")
    }

    @Test func aFactorysOwnSampleWinsOverItsTypes() {
        resolvedWith.withLock { $0.removeAll() }
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogNamed", \Container.catalogNamed, access: .internal)
            $0.factory("Container.catalogLabelled", \Container.catalogLabelled, access: .internal)
        }
        let report = catalog.report(
            ParameterSamples {
                $0.add("any string")
                $0.add("its own", for: \Container.catalogLabelled)
            })
        #expect(report.isValid, "\(report)")
        #expect(resolvedWith.withLock { $0 }.sorted() == ["labelled its own", "named any string"])
    }

    @Test func aContainerWithoutSharedNeedsAnInstance() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("CatalogRequestContainer.built", \CatalogRequestContainer.built, access: .internal)
        }
        let unchecked = catalog.report().unchecked
        #expect(unchecked.map(\.name) == ["CatalogRequestContainer.built"])
        #expect(unchecked.first?.reason.hasPrefix("CatalogRequestContainer is not a SharedContainer") == true)
        let report = catalog.report(ParameterSamples { $0.use(CatalogRequestContainer()) })
        #expect(report.isValid)
        #expect(report.validation.entries == ["CatalogRequestContainer.built<Built>"])
    }

    @Test func mainActorFactoriesResolveOnTheMainActorFromAnyThread() async {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.factory("Container.catalogOnMain", access: .internal, mainActor: { \Container.catalogOnMain })
        }
        // From the cooperative pool: through the main queue.
        #expect(catalog.report().isValid)
        // From the main actor itself: directly.
        let onMain = await MainActor.run { catalog.report().isValid }
        #expect(onMain)
    }

    @Test func skippedFactoriesAreListedAndFailNothing() {
        let catalog = FactoryCatalog(module: "Tests") {
            $0.skipped("Container.secret", access: .private, reason: "a test target cannot reach it")
        }
        let report = catalog.validate()
        #expect(report.isValid)
        #expect(report.skipped.map(\.description) == ["Container.secret (private): a test target cannot reach it"])
        #expect(
            report.description == """
                Factory catalog of Tests: 0 factories, 0 resolved, 0 finding(s), 0 unchecked, 1 skipped
                  skipped: Container.secret (private): a test target cannot reach it
                """)
    }

    #if EXIT_TESTS
    @Test func aCycleAmongMainActorFactoriesStopsTheProgramWithItsChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let catalog = FactoryCatalog(module: "Tests") {
                $0.factory("Container.mainCycleA", access: .internal, mainActor: { \Container.mainCycleA })
            }
            _ = catalog.report()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "FactoryTesting: graph validation cannot go on past this failure on the main actor: FactoryCore: "
                    + "circular dependency chain - Container.mainCycleA<Built> > Container.mainCycleB<Built> > "
                    + "Container.mainCycleA<Built>"), "\(output)")
    }
    #endif
}

extension Container {
    @MainActor fileprivate var mainCycleA: Factory<Built> {
        self {
            _ = self.mainCycleB()
            return Built()
        }
    }

    @MainActor fileprivate var mainCycleB: Factory<Built> {
        self {
            _ = self.mainCycleA()
            return Built()
        }
    }
}
