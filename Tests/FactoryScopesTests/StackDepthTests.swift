import FactoryScopes
import FactoryTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A chain of containers, each with a cached factory whose closure resolves the
/// next container's: `depth` nested cached resolutions, each one a miss.
private final class StackLink: ManagedContainer {
    let manager = ContainerManager()
    let next: StackLink?
    let marks: Collector<UInt>?

    init(next: StackLink?, marks: Collector<UInt>?) {
        self.next = next
        self.marks = marks
    }

    var node: Factory<StackNode> {
        self {
            self.marks?.append(currentStackAddress())
            return StackNode(next: self.next?.node())
        }
        .cached
    }

    static func chain(depth: Int, marks: Collector<UInt>? = nil) -> StackLink {
        var top: StackLink?
        for _ in 0..<depth { top = StackLink(next: top, marks: marks) }
        return top!
    }
}

private final class StackNode: Sendable {
    let next: StackNode?
    init(next: StackNode?) { self.next = next }
}

/// The address of a local of a frame of its own, called from the factory closure.
@inline(never)
private func currentStackAddress() -> UInt {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
}

/// Whether ThreadSanitizer or AddressSanitizer instruments this process: their
/// frames are larger, so the budgets below are for uninstrumented builds.
private var isSanitized: Bool {
    #if canImport(Darwin)
    let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
    let everyImage: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everyImage, "__tsan_init") != nil || dlsym(everyImage, "__asan_init") != nil
}

/// The stack budget of one nested cached resolution: 1 KB in a release build,
/// 4 KB in a debug build.
#if DEBUG
private let levelBudget = 4096
#else
private let levelBudget = 1024
#endif

/// The stack of the thread that resolves 300 nested cached factories: 512 KiB,
/// the default for secondary threads on Apple platforms, in a release build and
/// in a debug build; under a sanitizer, whose instrumentation enlarges every
/// frame, 8 MiB.
private var chainStackSize: Int {
    isSanitized ? 8 << 20 : 512 << 10
}

@Suite("Stack depth")
struct StackDepthTests {
    /// A nested cached resolution adds at most 1 KB of stack in a release build
    /// and 4 KB in a debug build: the general path runs the factory closure from
    /// the caller's frame, not from inside its own.
    @Test(.enabled(if: !isSanitized, "sanitizers enlarge every frame; the budget is for plain builds"))
    func aCachedLevelTakesAtMostItsStackBudget() throws {
        let marks = Collector<UInt>()
        _ = StackLink.chain(depth: 50, marks: marks).node()
        let addresses = marks.values
        try #require(addresses.count == 50)
        // Levels 10 to 40: away from the first resolution's one-time setup.
        let perLevel = Int(addresses[10] - addresses[40]) / 30
        #expect(perLevel <= levelBudget, "a cached level takes \(perLevel) bytes of stack")
    }

    /// 300 nested cached resolutions fit in a 512 KiB thread stack, in a release
    /// build and in a debug one (see `chainStackSize` for sanitizers). A stack
    /// overflow crashes the child process, which fails the test.
    #if EXIT_TESTS
    @Test func aChainOf300CachedFactoriesResolvesOnASmallThreadStack() async {
        await #expect(processExitsWith: .success) {
            let top = StackLink.chain(depth: 300)
            let done = Signal()
            let depth = Counter()
            startThread(stackSize: chainStackSize) {
                var node: StackNode? = top.node()
                while let next = node?.next {
                    depth.increment()
                    node = next
                }
                done.raise()
            }
            // A deadlock fails the child, never hangs it.
            exit(done.wait() && depth.value == 299 ? 0 : 1)
        }
    }
    #endif
}
