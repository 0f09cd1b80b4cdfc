import FactoryCore
import FactoryTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a factory of ``MainActorFormsContainer`` built, and who built it.
final class FormValue: Sendable {
    let builder: String
    init(_ builder: String) { self.builder = builder }
}

final class MainActorFormsContainer: ManagedContainer {
    let manager = ContainerManager()
    var value: Factory<FormValue> { self { FormValue("definition") } }
}

/// The context overrides that take a closure written `{ @MainActor in ... }` as it
/// is: `onArg`, `onArgs`, `onPreview`, `onDebug`, `onSimulator` and `onDevice`
/// (`register`, `context` and `onTest` are checked elsewhere).
enum MainActorForm: String, CaseIterable, Codable, Sendable {
    case onArg, onArgs, onPreview, onDebug, onSimulator, onDevice

    /// Applies the form to `factory` with a main-actor closure building a value named
    /// after it. Not isolated: off the main actor, only the forms that take a
    /// main-actor closure as it is accept `{ @MainActor in ... }`.
    func apply(to factory: Factory<FormValue>, argument: String) {
        switch self {
        case .onArg: factory.onArg(argument) { @MainActor in FormValue("onArg") }
        case .onArgs: factory.onArgs(["absent", argument]) { @MainActor in FormValue("onArgs") }
        case .onPreview: factory.onPreview { @MainActor in FormValue("onPreview") }
        case .onDebug: factory.onDebug { @MainActor in FormValue("onDebug") }
        case .onSimulator: factory.onSimulator { @MainActor in FormValue("onSimulator") }
        case .onDevice: factory.onDevice { @MainActor in FormValue("onDevice") }
        }
    }

    /// Who builds here, in a test run (not a preview, not a simulator): the override
    /// when its context applies, else the definition.
    var builderHere: String {
        switch self {
        case .onArg, .onArgs, .onDevice: return rawValue
        case .onDebug:
            #if DEBUG
            return rawValue
            #else
            return "definition"
            #endif
        case .onPreview, .onSimulator: return "definition"
        }
    }
}

@Suite struct MainActorOverrideTests {
    /// Each form, given a main-actor closure, is the override a resolution on the
    /// main actor uses where its context applies, and is left alone where it does not.
    @Test(arguments: MainActorForm.allCases)
    func anOverrideWrittenForTheMainActorBuildsOnTheMainActor(_ form: MainActorForm) async {
        let argument = "MainActorOverrideTests.\(form)"
        FactoryContext.setArg(argument, forKey: argument)
        defer { FactoryContext.removeArg(forKey: argument) }
        let container = MainActorFormsContainer()
        form.apply(to: container.value, argument: argument)
        let builder = await MainActor.run { container.value().builder }
        #expect(builder == form.builderHere)
    }

    #if EXIT_TESTS
    /// Each form records its closure as isolated to the main actor: in a process whose
    /// context makes the override apply, a resolution off the main actor stops the
    /// program naming the factory, after one on the main actor used the override.
    @Test(arguments: MainActorForm.allCases)
    func anOverrideWrittenForTheMainActorStopsAResolutionOffIt(_ form: MainActorForm) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [form] in
            let argument = "-main-actor-form"
            FactoryContext.current = FactoryContext(
                arguments: ["app", argument], isPreview: true, isDebug: true, isSimulator: form == .onSimulator)
            FactoryContext.honorsLaunchOverridesInRelease = true
            let container = MainActorFormsContainer()
            form.apply(to: container.value, argument: argument)
            let builder = await MainActor.run { container.value().builder }
            guard builder == form.rawValue else {
                print("the override did not apply: \(builder) built")
                exit(0)
            }
            runOnAnotherThread { _ = container.value() }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(offMainActorMessage("MainActorFormsContainer.value<FormValue>")))
    }
    #endif
}
