import FactoryTestSupport
import FactoryTesting

protocol Greeter: Sendable {
    var name: String { get }
}

struct LiveGreeter: Greeter {
    let name = "live"
}

struct MockGreeter: Greeter {
    let name: String
}

/// A class instance, so tests can tell instances apart.
final class Box: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

final class CycleA: Sendable {
    let b: CycleB
    init(b: CycleB) { self.b = b }
}

final class CycleB: Sendable {
    let a: CycleA
    init(a: CycleA) { self.a = a }
}

extension Container {
    var greeter: Factory<any Greeter> { self { LiveGreeter() } }
    var number: Factory<Int> { self { 0 } }
    var label: ParameterFactory<String, MockGreeter> { self { MockGreeter(name: $0) } }
    var singletonBox: Factory<Box> { self { Box() }.singleton }
    var cachedBox: Factory<Box> { self { Box() }.cached }
    var notAFactory: String { "plain property" }

    // Graph validation fixtures.
    var cycleA: Factory<CycleA> { self { CycleA(b: self.cycleB()) } }
    var cycleB: Factory<CycleB> { self { CycleB(a: self.cycleA()) } }
    var selfCycle: Factory<Box> { self { Box(id: self.selfCycle().id) } }
    var singletonCycleA: Factory<CycleA> { self { CycleA(b: self.singletonCycleB()) }.singleton }
    var singletonCycleB: Factory<CycleB> { self { CycleB(a: self.singletonCycleA()) }.singleton }
    var promisedGreeter: Factory<(any Greeter)?> { promised() }
    var usesPromise: Factory<String> { self { self.promisedGreeter()?.name ?? "none" } }
    var dependsOnCycle: Factory<String> { self { "\(self.cycleA().b)" } }
    var healthy: Factory<String> { self { self.greeter().name + "\(self.number())" } }
    var probe: Factory<Int> { self { 0 } }
}

/// A custom container that opts in to task-local isolation.
final class TaskLocalOrders: SharedContainer, TaskLocalContainer {
    @TaskLocal static var shared = TaskLocalOrders()
    static var sharedTaskLocal: TaskLocal<TaskLocalOrders> { $shared }
    let manager = ContainerManager()

    var checkout: Factory<String> { self { "live checkout" } }
    var receipt: Factory<Box> { self { Box() }.singleton }
}

/// A custom container declared the usual way, with one instance for the process.
/// Only tests that isolate it with the `.container(StaticOrders.self)` trait use it.
final class StaticOrders: SharedContainer {
    static let shared = StaticOrders()
    let manager = ContainerManager()

    var checkout: Factory<String> { self { "live checkout" } }
    var receipt: Factory<Box> { self { Box() }.singleton }
    var cachedReceipt: Factory<Box> { self { Box() }.cached }
}

/// A second `static let` container, for tests that isolate two at once.
final class StaticPayments: SharedContainer {
    static let shared = StaticPayments()
    let manager = ContainerManager()

    var method: Factory<String> { self { "live card" } }
}

/// A container only XCTest cases use; they run one at a time.
final class XCTestOrders: SharedContainer {
    static let shared = XCTestOrders()
    let manager = ContainerManager()

    var checkout: Factory<String> { self { "live checkout" } }
    var receipt: Factory<Box> { self { Box() }.singleton }
}
