import FactoryKit
import FactoryTestSupport
import Testing

// Factory's `AutoRegistering` is a plain protocol: apps give each feature module a
// registrar class and call them all from the container's `autoRegister()`.

protocol RegistrarSettings: Sendable {
    var source: String { get }
}

struct LiveRegistrarSettings: RegistrarSettings {
    let source: String
}

final class RegistrarContainer: SharedContainer, AutoRegistering {
    static let shared = RegistrarContainer()
    let manager = ContainerManager()

    let runs = Counter()
    /// Made with `waitingCallers`, `autoRegister()` returns only once that many other
    /// threads (``callers``) wait for it in their first resolution.
    let waitingCallers: Int
    let callers = Callers()
    let overlaps = Overlaps()

    init(waitingCallers: Int = 0) {
        self.waitingCallers = waitingCallers
    }

    func autoRegister() {
        runs.increment()
        if waitingCallers > 0 {
            overlaps.wait("\(waitingCallers) other threads wait for the registrars") {
                callers.othersWaitInside(waitingCallers)
            }
        }
        // Written as an app writes it; without the upcoming ExistentialAny feature
        // this reads `[AutoRegistering]`.
        let registrars: [any AutoRegistering] = [SettingsAutoRegister(), ProfileAutoRegister(container: self)]
        SettingsAutoRegister.$target.withValue(self) {
            for registrar in registrars { registrar.autoRegister() }
        }
    }
}

extension RegistrarContainer {
    var settings: Factory<any RegistrarSettings> { self { LiveRegistrarSettings(source: "definition") } }
    var profileName: Factory<String> { self { "definition" } }
}

/// Registers into the container being set up, as a feature module's registrar
/// registers into `Container.shared`.
final class SettingsAutoRegister: AutoRegistering {
    @TaskLocal static var target: RegistrarContainer?

    func autoRegister() {
        Self.target?.settings.register { LiveRegistrarSettings(source: "registrar") }
    }
}

/// A registrar as apps often write one: not final, not Sendable, with stored
/// state (its mutable `container`).
class ProfileAutoRegister: AutoRegistering {
    weak var container: RegistrarContainer?

    init(container: RegistrarContainer?) {
        self.container = container
    }

    func autoRegister() {
        container?.profileName.register { "registrar" }
    }
}

@Suite struct AutoRegisteringRegistrarTests {
    @Test func aContainerCallsItsRegistrarsBeforeFirstUse() {
        let container = RegistrarContainer()
        #expect(container.settings().source == "registrar")
        #expect(container.profileName() == "registrar")
        #expect(container.runs.value == 1)
    }

    @Test func registrarsRunAgainAfterARegistrationReset() {
        let container = RegistrarContainer()
        #expect(container.settings().source == "registrar")
        container.manager.reset()
        #expect(container.settings().source == "registrar")
        #expect(container.runs.value == 2)
    }

    /// The registrars run on one of eight threads, and finish only once the other
    /// seven wait for them in their first resolution.
    @Test func manyThreadsTouchingANewContainerRunItsRegistrarsOnce() {
        let container = RegistrarContainer(waitingCallers: 7)
        let sources = Collector<String>()
        runOnThreads(8) { _ in
            container.callers.enter()
            let source = container.settings().source
            container.callers.leave()
            sources.append(source)
        }
        container.overlaps.expect(1)
        #expect(container.runs.value == 1)
        #expect(sources.values == Array(repeating: "registrar", count: 8))
    }
}
