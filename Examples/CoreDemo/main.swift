// CoreDemo: what a command-line tool gets from FactoryCore alone: containers,
// factories, overrides, parameters, contexts, promises and the trace.
// No scopes (every factory is unique here), no property wrappers, no Foundation.
//
//     swift run CoreDemo            # the walk-through
//     swift run CoreDemo --shout    # the same, with a launch-argument context
import FactoryCore

// MARK: - Services

protocol Greeting: Sendable {
    func greet(_ name: String) -> String
}

struct PlainGreeting: Greeting {
    func greet(_ name: String) -> String { "Hello, \(name)." }
}

struct PirateGreeting: Greeting {
    func greet(_ name: String) -> String { "Ahoy, \(name)!" }
}

struct ShoutingGreeting: Greeting {
    func greet(_ name: String) -> String { "HELLO, \(name.uppercased())!" }
}

protocol Analytics: Sendable {
    func track(_ event: String)
}

struct PrintAnalytics: Analytics {
    func track(_ event: String) { print("    analytics: \(event)") }
}

/// Built from a parameter: `container.repeater(3)`.
struct Repeater: Sendable {
    let times: Int
    func callAsFunction(_ word: String) -> String {
        Array(repeating: word, count: times).joined(separator: " ")
    }
}

/// Needs two other services: constructor injection inside a factory.
final class Welcome: Sendable {
    let greeting: any Greeting
    let repeater: Repeater
    init(greeting: any Greeting, repeater: Repeater) {
        self.greeting = greeting
        self.repeater = repeater
    }
    func message(for name: String) -> String {
        greeting.greet(name) + " " + repeater("Welcome!")
    }
}

/// Lives in its own container and reaches back into `Container` for its greeting.
final class Receipt: Sendable {
    let greeting: any Greeting
    let feeCents: Int
    init(greeting: any Greeting, feeCents: Int) {
        self.greeting = greeting
        self.feeCents = feeCents
    }
    func text(for name: String, cents: Int) -> String {
        "\(greeting.greet(name)) You paid \(cents + feeCents) cents (fee \(feeCents))."
    }
}

// MARK: - Factories on the default container

extension Container {
    var greeting: Factory<any Greeting> {
        self { PlainGreeting() }
    }

    var repeater: ParameterFactory<Int, Repeater> {
        self { Repeater(times: $0) }
    }

    var welcome: Factory<Welcome> {
        self { Welcome(greeting: self.greeting(), repeater: self.repeater(2)) }
    }

    /// No default: some other part of the program must register an implementation.
    var analytics: Factory<(any Analytics)?> {
        promised()
    }
}

// MARK: - A custom container

final class PaymentsContainer: SharedContainer {
    static let shared = PaymentsContainer()
    let manager = ContainerManager()
}

extension PaymentsContainer {
    var feeCents: Factory<Int> {
        self { 30 }
    }

    var receipt: Factory<Receipt> {
        self { Receipt(greeting: Container.shared.greeting(), feeCents: self.feeCents()) }
    }
}

// MARK: - The walk-through

func section(_ title: String) {
    print("\n== \(title)")
}

func show(_ label: String, _ value: String) {
    let padding = String(repeating: " ", count: max(1, 38 - label.count))
    print("  \(label)\(padding)-> \(value)")
}

let container = Container.shared

section("1. Registration and resolution")
show("container.greeting()", container.greeting().greet("Ada"))
show("container.greeting.resolve()", container.greeting.resolve().greet("Ada"))
show("resolve(\\.greeting)", resolve(\.greeting).greet("Ada"))
show("container.welcome()", container.welcome().message(for: "Ada"))

section("2. Overrides: register, reset, push/pop")
container.greeting.register { PirateGreeting() }
show("after greeting.register { Pirate }", container.greeting().greet("Ada"))
show("welcome() sees it too", container.welcome().message(for: "Ada"))
container.greeting.reset()
show("after greeting.reset()", container.greeting().greet("Ada"))
container.manager.push()
container.greeting.register { ShoutingGreeting() }
show("after push() + register { Shout }", container.greeting().greet("Ada"))
container.manager.pop()
show("after pop()", container.greeting().greet("Ada"))

section("3. Parameters (ParameterFactory)")
show("container.repeater(1)", container.repeater(1)("hip"))
show("container.repeater(3)", container.repeater(3)("hip"))
container.repeater.register { Repeater(times: $0 * 2) }
show("after register { times * 2 }: (3)", container.repeater(3)("hip"))
container.repeater.reset()
show("resolve(\\.repeater, parameter: 2)", resolve(\.repeater, parameter: 2)("hip"))

section("4. Contexts: onDebug, onArg, FactoryContext.setArg")
let context = FactoryContext.current
show("FactoryContext.current.isDebug", "\(context.isDebug)")
show("launch arguments contain --shout", "\(context.arguments.contains("--shout"))")
container.greeting.onDebug { PirateGreeting() }
container.greeting.onArg("--shout") { ShoutingGreeting() }
show("with onDebug + onArg(\"--shout\")", container.greeting().greet("Ada"))
FactoryContext.setArg("--shout", forKey: "greeting-style")
show("after setArg(\"--shout\")", container.greeting().greet("Ada"))
FactoryContext.removeArg(forKey: "greeting-style")
show("after removeArg", container.greeting().greet("Ada"))
container.greeting.register { PlainGreeting() }
show("register does not beat a context", container.greeting().greet("Ada"))
container.greeting.reset(.context)
show("after reset(.context)", container.greeting().greet("Ada"))
container.greeting.reset()
print("  (release builds ignore onDebug, and ignore launch arguments unless")
print("   FactoryContext.honorsLaunchOverridesInRelease is set; setArg always counts)")

section("5. promised(): a factory with no default")
print("  (resolving an unregistered promise stops a DEBUG build with a message naming it;")
print("   this demo turns that off on a scratch container to show the nil a release build gets)")
let scratch = Container()
scratch.manager.promiseTriggersError = false
show("scratch.analytics(), unregistered", scratch.analytics() == nil ? "nil" : "an instance")
container.analytics.register { PrintAnalytics() }
show("container.analytics(), registered", container.analytics() == nil ? "nil" : "an instance")
container.analytics()?.track("demo.promised")
show("scratch still has nothing", scratch.analytics() == nil ? "nil" : "an instance")

section("6. A custom container")
let payments = PaymentsContainer.shared
show("payments.receipt()", payments.receipt().text(for: "Ada", cents: 1_000))
payments.feeCents.register { 0 }
show("after feeCents.register { 0 }", payments.receipt().text(for: "Ada", cents: 1_000))
show("resolve(\\PaymentsContainer.feeCents)", "\(resolve(\PaymentsContainer.feeCents))")
show("Container.shared is untouched", container.welcome().message(for: "Ada"))
payments.reset()

section("7. Trace of one resolution cycle")
container.manager.logger = { print("    trace \($0)") }
container.manager.trace = true
payments.manager.logger = { print("    trace \($0)") }
payments.manager.trace = true
print("  (depth, factory, F: built by its closure / R: registered / O: context override / C: cached, address, type)")
print("  container.welcome():")
_ = container.welcome()
print("  payments.receipt() (crosses into Container.shared):")
_ = payments.receipt()
container.manager.trace = false
payments.manager.trace = false
print("\nDone. A factory that resolves itself would stop the program with the whole chain,")
print("e.g. \"circular dependency chain - Container.a<A> > Container.b<B> > Container.a<A>\".")
