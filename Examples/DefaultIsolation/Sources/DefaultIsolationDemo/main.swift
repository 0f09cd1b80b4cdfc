import AppModels
import FactoryWrappers

// A tour of factories declared in a module whose default isolation is the main
// actor. Top-level code runs on the main actor; every line printed says what
// it shows.

/// A greeting service the demo registers over the real one.
final class ShoutingGreetingService: GreetingService {
    func greeting(for name: String) -> String {
        "HELLO, \(name.uppercased())!"
    }
}

let container = Container.shared

print("view model resolved on the main actor: title = \(container.viewModel().title)")

container.session().signIn("Ada")
print("after signing in on the singleton session, a new view model's title = \(container.viewModel().title)")

let firstSession = container.session()
let secondSession = container.session()
print(
    "session is a .singleton: two resolutions give one instance (#\(firstSession.instanceNumber)) = "
        + "\(firstSession === secondSession)")

let firstFormatter = container.countFormatter()
let secondFormatter = container.countFormatter()
print(
    "count formatter is .cached: two resolutions give one instance (#\(firstFormatter.instanceNumber)) = "
        + "\(firstFormatter === secondFormatter)")
container.manager.reset(scope: .cached)
print("after manager.reset(scope: .cached) the count formatter is a new instance: #\(container.countFormatter().instanceNumber)")

let inbox = container.itemList((name: "Inbox", count: 3))
print("parameter factory itemList((name: \"Inbox\", count: 3)) made a list model: summary = \(inbox.summary)")

container.greetingService.register { ShoutingGreetingService() }
print("after greetingService.register { ShoutingGreetingService() }, a new view model's title = \(container.viewModel().title)")

container.greetingService.reset()
print("after greetingService.reset(), back to the live service: title = \(container.viewModel().title)")

// Off the main actor: a main-actor factory must hop there; a nonisolated one need not.
let fromDetached = await Task.detached {
    await Container.shared.viewModel.resolveOnMainActor()
}.value
print("from a detached task, viewModel.resolveOnMainActor() hopped to the main actor to build it: title = \(fromDetached.title)")

let version = await Task.detached {
    Container.shared.buildInfo().version
}.value
print("from a detached task, the nonisolated factory buildInfo resolved right there, off the main actor: version = \(version)")
