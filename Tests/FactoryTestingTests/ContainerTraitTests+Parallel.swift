import FactoryTestSupport
import FactoryTesting
import Foundation
import Testing

/// 64 cases that each register their own mocks in `Container.shared` and run in
/// parallel: each must see only its own registrations, caches and singletons.
@Suite(.container) struct ParallelIsolationTests {
    static let cases = 0..<64
    static let eachCaseOverlap = Overlap(cases: cases.count)
    static let traitCaseOverlap = Overlap(cases: cases.count)

    @Test(arguments: cases) func eachCaseSeesOnlyItsOwnMocks(_ id: Int) async throws {
        let container = Container.shared
        container.number.register { id }
        container.greeter.register { MockGreeter(name: "mock \(id)") }
        // A singleton registered by every case: one shared storage would hand one
        // case's instance to another.
        container.singletonBox.register { Box(id: id) }
        let singleton = container.singletonBox()
        let cached = container.cachedBox()

        let peak = await Self.eachCaseOverlap.arrive()
        for _ in 0..<25 {
            #expect(Container.shared === container)
            #expect(Container.shared.number() == id)
            #expect(resolve(\.greeter).name == "mock \(id)")
            #expect(Container.shared.singletonBox() === singleton)
            #expect(Container.shared.singletonBox().id == id)
            #expect(Container.shared.cachedBox() === cached)
            await Task.yield()
        }
        await Self.eachCaseOverlap.leave()
        Overlap.expectOverlap(peak)
    }

    @Test(.container { $0.greeter.register { MockGreeter(name: "trait") } }, arguments: cases)
    func traitMocksAndBodyMocksStayInTheirCase(_ id: Int) async throws {
        let container = Container.shared
        #expect(container.greeter().name == "trait")
        container.label.register { MockGreeter(name: "\($0) \(id)") }

        let peak = await Self.traitCaseOverlap.arrive()
        for _ in 0..<25 {
            #expect(Container.shared.label("case").name == "case \(id)")
            #expect(Container.shared.greeter().name == "trait")
            await Task.yield()
        }
        await Self.traitCaseOverlap.leave()
        Overlap.expectOverlap(peak)
    }
}

/// Holds each case of a parameterized test until several are in flight at once,
/// so the cases overlap instead of happening to run one after another, and
/// reports the most that were.
///
/// A case waits until ``target`` cases are in flight or every case has arrived:
/// no sleep decides when. A parallel runner starts every case, so the wait ends.
/// Only a runner that runs fewer cases at once than it was told (a `.serialized`
/// trait) leaves cases waiting; the wait gives up after ``watchdogBound`` and the
/// cases go on with the overlap they got, which ``expectOverlap(_:sourceLocation:)``
/// then judges.
actor Overlap {
    /// How many cases the runner was told to run at once: 1 with `--no-parallel`,
    /// the experimental maximum width if one was given, otherwise unbounded.
    static let runnerWidth: Int = {
        let arguments = CommandLine.arguments
        if arguments.contains("--no-parallel") { return 1 }
        if let flag = arguments.firstIndex(of: "--experimental-maximum-parallelization-width"),
            arguments.indices.contains(flag + 1), let width = Int(arguments[flag + 1]), width > 0
        {
            return width
        }
        let variable = ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"]
        if let width = variable.flatMap({ Int($0) }), width > 0 { return width }
        return .max
    }()

    /// How many cases in flight release the waiting ones.
    static let target = min(8, runnerWidth)

    private let cases: Int
    private var arrived = 0
    private var inFlight = 0
    private var peak = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchdog: Task<Void, Never>?
    private var gaveUp = false

    /// Creates the gate of a test with `cases` cases.
    init(cases: Int) { self.cases = cases }

    /// Enters a case; returns when it may go on, with the most cases in flight at once so far.
    func arrive() async -> Int {
        if arrived == cases && inFlight == 0 {
            // The test runs again (repetitions): a new round.
            arrived = 0
            peak = 0
            gaveUp = false
        }
        arrived += 1
        inFlight += 1
        peak = max(peak, inFlight)
        if inFlight >= Self.target || arrived == cases || gaveUp {
            release()
        } else {
            if watchdog == nil {
                watchdog = Task {
                    do { try await Task.sleep(nanoseconds: UInt64(watchdogBound * 1e9)) } catch { return }
                    giveUp()
                }
            }
            await withCheckedContinuation { waiting.append($0) }
        }
        return peak
    }

    /// Leaves a case.
    func leave() {
        inFlight -= 1
    }

    private func giveUp() {
        gaveUp = true
        release()
    }

    private func release() {
        watchdog?.cancel()
        watchdog = nil
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    /// Checks that a case ran while another case was in flight. A runner told to
    /// run one case at a time makes that a known issue, so the serial run shows in
    /// the results instead of passing as if isolation had been tested.
    nonisolated static func expectOverlap(_ peak: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let check = {
            #expect(
                peak >= 2,
                "at most \(peak) case in flight at once: the cases ran one after another, so isolation between cases running at once went untested",
                sourceLocation: sourceLocation)
        }
        if runnerWidth == 1 {
            withKnownIssue("the runner was told to run one test case at a time (--no-parallel)", isIntermittent: true, check)
        } else {
            check()
        }
    }
}
