import FactoryCore
import FactoryTestSupport

protocol Greeting: AnyObject, Sendable {
    var text: String { get }
}

final class Hello: Greeting {
    let text = "hello"
}

final class MockGreeting: Greeting {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

final class Service: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

final class Consumer: Sendable {
    let greeting: any Greeting
    init(greeting: any Greeting) { self.greeting = greeting }
}

final class CircularA: Sendable {
    let b: CircularB
    init(b: CircularB) { self.b = b }
}

final class CircularB: Sendable {
    let c: CircularC
    init(c: CircularC) { self.c = c }
}

final class CircularC: Sendable {
    let a: CircularA
    init(a: CircularA) { self.a = a }
}

extension Container {
    var greeting: Factory<any Greeting> { self { Hello() } }
    var consumer: Factory<Consumer> { self { Consumer(greeting: self.greeting()) } }
    var service: Factory<Service> { Factory(self) { Service() } }
    var numbered: ParameterFactory<Int, Service> { self { Service(id: $0) } }
    var optionalGreeting: Factory<(any Greeting)?> { self { nil } }
    var promisedGreeting: Factory<(any Greeting)?> { promised() }
    var promisedNumbered: ParameterFactory<Int, Service?> { promised() }
    var circularA: Factory<CircularA> { self { CircularA(b: self.circularB()) } }
    var circularB: Factory<CircularB> { self { CircularB(c: self.circularC()) } }
    var circularC: Factory<CircularC> { self { CircularC(a: self.circularA()) } }
}

/// A custom container, as apps declare them.
final class OrderContainer: SharedContainer {
    static let shared = OrderContainer()
    let manager = ContainerManager()
}

extension OrderContainer {
    var greeting: Factory<any Greeting> { self { Hello() } }
    var service: Factory<Service> { self { Service(id: 7) } }
    var numbered: ParameterFactory<Int, Service> { self { Service(id: $0 * 10) } }
}
