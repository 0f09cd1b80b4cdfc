// FactoryDemo: the full stack (FactoryWrappers re-exports FactoryScopes and
// FactoryCore) walked through step by step.
//
//     swift run FactoryDemo              # the walk-through
//     swift run FactoryDemo --offline    # the same, with a launch-argument context
//     swift run FactoryDemo --profile startup.json   # step 8's profile also as a Chrome trace
//
// Each line prints what was resolved and, after the arrow, what came back. Where
// several objects are compared, letters name instances (see `letters`).
import Dispatch
import FactoryProfiling
import FactoryWrappers

let container = Container.shared

print("FactoryDemo: each line shows what was resolved -> what came back.")
print("Letters name instances: \"A A B\" = the first two are one instance, the third another.")

section("1. Containers")
show("Container.shared.baseURL()", container.baseURL())
let staging = Container()
staging.baseURL.register { "https://staging.example.com" }
show("a Container() with its own registration", staging.baseURL())
show("Container.shared is unaffected", container.baseURL())
show("resolve(\\.baseURL) in $shared.withValue(staging)", Container.$shared.withValue(staging) { resolve(\.baseURL) })
let reports = ReportingContainer.shared.reports()
show("network in ReportingContainer, in Container", letters([reports.network, container.network()]))

section("2. Scopes")
show("unique: greeter twice", letters([container.greeter("Ada"), container.greeter("Ada")]))
show(
    "singleton: shared twice, then a new Container()", letters([container.network(), container.network(), Container().network()]))
let cachedBefore = container.imageCache()
show("cached: shared twice, then a new Container()", letters([cachedBefore, container.imageCache(), Container().imageCache()]))
container.manager.reset(options: .scope)
show("cached: before, after reset(options: .scope)", letters([cachedBefore, container.imageCache()]))
let login = container.session()
show("custom session scope: login, again", letters([login, container.session()]))
container.manager.reset(scope: .session)  // logout
show("session: login, after logout (reset .session)", letters([login, container.session()]))
let checkout = container.checkout()
show("graph: context of orders, of audit (1 checkout)", letters([checkout.orders.context, checkout.audit.context]))
show("graph: context of 1st checkout, of 2nd checkout", letters([checkout.orders.context, container.checkout().orders.context]))
var document: Document? = container.document()
show("shared: while held, resolve again", letters([document!, container.document()]))
let released = WeakReference(document!)
document = nil
show("shared: after the last holder let go", released.object == nil ? "released (held weakly)" : "still alive")

section("3. Property wrappers (a model with @Injected and @LazyInjected properties)")
showPropertyWrappers()

section("4. Contexts")
container.analytics.onDebug { ConsoleAnalytics() }
container.analytics.onArg("--offline") { OfflineAnalytics() }
show("FactoryContext.current.isDebug", "\(FactoryContext.current.isDebug)")
show("analytics()", container.analytics().name)
FactoryContext.setArg("--offline", forKey: "mode")
show("after FactoryContext.setArg(\"--offline\")", container.analytics().name)
FactoryContext.removeArg(forKey: "mode")
container.analytics.reset()
show("after analytics.reset()", container.analytics().name)

section("5. Parameters")
show("greeter(\"Ada\")", container.greeter("Ada").greeting)
show("cachedGreeter: Ada, Ada, Bob", letters(["Ada", "Ada", "Bob"].map { container.cachedGreeter($0) }))
container.greeter.register { Greeter(name: $0.uppercased()) }
show("after greeter.register", container.greeter("Ada").greeting)
container.greeter.reset()

section("6. Decorators")
print("  container.mailer() twice (a factory decorator, cached scope):")
_ = container.mailer()
_ = container.mailer()
let decorated = Container()
decorated.decorator { print("    container decorator: resolved \(type(of: $0))") }
print("  a container-wide decorator sees every resolution of checkout():")
_ = decorated.checkout()

section("7. Trace of one resolution cycle: container.checkout()")
container.manager.logger = { print("    \($0)") }
container.manager.trace = true
_ = container.checkout()
container.manager.trace = false
print("  (depth, factory, then how the value came: F: built by the factory's closure, C: from a scope's cache,")
print("   R: from a registration, O: from a context override; then the instance's address and type)")

section("8. A profile of start-up: what the first storefront() built, the slowest first")
// A background thread warms the recommendations up (the catalog, the database under them) while the main thread, once
// the database is opening, builds the storefront: it waits for the catalog and the recommendations the other thread is
// building.
let launch = Container()
let profile = FactoryProfile.record(containers: [launch]) {
    let warmUp = DispatchGroup()
    DispatchQueue.global().async(group: warmUp) { _ = launch.recommendations() }
    Database.opening.wait()
    _ = launch.storefront()
    warmUp.wait()
}
print(indented(profile.summary))
print("  Who built what:")
print(indented(profile.tree, by: 4))
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count {
    let path = CommandLine.arguments[index + 1]
    writeFile(path, profile.chromeTrace())
    print("  Chrome trace written to \(path): open it in ui.perfetto.dev or chrome://tracing.")
}
