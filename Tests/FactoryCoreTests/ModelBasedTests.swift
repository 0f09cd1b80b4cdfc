import FactoryCore
import FactoryTestSupport
import Testing

// Model-based test of registration, context overrides, reset, push and pop.
//
// Seeded random sequences of operations run against real containers and, step by
// step, against a small reference model of the documented rules (see
// `RegistrationModel`). Every resolution is checked against the model: which closure
// built the value (closures tag what they build) and that the instance is new.
// A failure names the seed and the steps that led to it; rerun with that seed in
// `seeds` to replay it.

extension ModelContaining {
    fileprivate var alpha: Factory<ModelValue> {
        self { ModelValue(closure: ModelFactory.alpha.definition, parameter: 0, serials: self.serials) }
    }
    fileprivate var beta: Factory<ModelValue> {
        Factory(self) { ModelValue(closure: ModelFactory.beta.definition, parameter: 0, serials: self.serials) }
    }
    fileprivate var gamma: ParameterFactory<Int, ModelValue> {
        self { ModelValue(closure: ModelFactory.gamma.definition, parameter: $0, serials: self.serials) }
    }
}

private enum ModelFactory: Int, CaseIterable, CustomStringConvertible {
    case alpha, beta, gamma

    /// The tag of the definition's closure; registered closures get positive tags.
    var definition: Int { -1 - rawValue }

    var description: String {
        switch self {
        case .alpha: return "alpha"
        case .beta: return "beta"
        case .gamma: return "gamma"
        }
    }
}

/// The contexts the model uses: a runtime argument set for the test, the test
/// context (always on under a test runner) and the debug context (on in DEBUG builds).
private enum ModelContext: CaseIterable, CustomStringConvertible {
    case argument, test, debug

    var description: String {
        switch self {
        case .argument: return ".arg"
        case .test: return ".test"
        case .debug: return ".debug"
        }
    }

    static let flag = "-factory-model-based-test"

    var type: FactoryContextType {
        switch self {
        case .argument: return .arg(Self.flag)
        case .test: return .test
        case .debug: return .debug
        }
    }

    /// Lower wins: arguments, then test, then debug.
    var rank: Int {
        switch self {
        case .argument: return 0
        case .test: return 1
        case .debug: return 2
        }
    }

    var isActive: Bool {
        switch self {
        case .argument, .test: return true
        case .debug:
            #if DEBUG
            return true
            #else
            return false
            #endif
        }
    }
}

/// One operation of a run.
private enum ModelStep: CustomStringConvertible {
    case register(container: Int, factory: ModelFactory, closure: Int)
    case context(container: Int, factory: ModelFactory, contexts: [ModelContext], closure: Int)
    case resetFactory(container: Int, factory: ModelFactory, options: FactoryResetOptions)
    case resetContainer(container: Int, options: FactoryResetOptions)
    case push(container: Int)
    case pop(container: Int)
    case resolve(container: Int, factory: ModelFactory, parameter: Int)

    var description: String {
        switch self {
        case .register(let c, let f, let closure): return "c\(c).\(f).register(\(closure))"
        case .context(let c, let f, let contexts, let closure): return "c\(c).\(f).context(\(contexts), \(closure))"
        case .resetFactory(let c, let f, let options): return "c\(c).\(f).reset(\(describe(options)))"
        case .resetContainer(let c, let options): return "c\(c).manager.reset(options: \(describe(options)))"
        case .push(let c): return "c\(c).manager.push()"
        case .pop(let c): return "c\(c).manager.pop()"
        case .resolve(let c, let f, let p): return "c\(c).\(f)(\(p))"
        }
    }
}

private func describe(_ options: FactoryResetOptions) -> String {
    if options == .all { return ".all" }
    if options.isEmpty { return ".none" }
    let names: [(FactoryResetOptions, String)] = [(.registration, "registration"), (.context, "context"), (.scope, "scope")]
    return "[" + names.filter { options.contains($0.0) }.map { "." + $0.1 }.joined(separator: ", ") + "]"
}

/// The reference: what each container remembers, per the documented rules.
///
/// - A context override that applies wins over `register`, which wins over the
///   definition; among overrides, the lowest-ranked context that applies.
/// - `register` replaces the registration; a context override replaces that context's.
/// - A factory's `reset` and a container's `reset(options:)` remove registrations
///   (`.registration`), context overrides (`.context`), or everything (`.all`).
/// - `push` saves every registration and override; `pop` restores the last save,
///   and does nothing when nothing was saved.
private struct RegistrationModel {
    struct Entry {
        var registration: Int?
        var contexts: [ModelContext: Int] = [:]
    }

    struct ContainerState {
        var entries: [ModelFactory: Entry] = [:]
        var stack: [[ModelFactory: Entry]] = []
    }

    var containers: [ContainerState]

    init(containers: Int) {
        self.containers = Array(repeating: ContainerState(), count: containers)
    }

    mutating func apply(_ step: ModelStep) {
        switch step {
        case .register(let c, let f, let closure):
            containers[c].entries[f, default: Entry()].registration = closure
        case .context(let c, let f, let contexts, let closure):
            for context in contexts { containers[c].entries[f, default: Entry()].contexts[context] = closure }
        case .resetFactory(let c, let f, let options):
            containers[c].entries[f] = Self.reset(containers[c].entries[f], options)
        case .resetContainer(let c, let options):
            for f in ModelFactory.allCases { containers[c].entries[f] = Self.reset(containers[c].entries[f], options) }
        case .push(let c):
            containers[c].stack.append(containers[c].entries)
        case .pop(let c):
            if let saved = containers[c].stack.popLast() { containers[c].entries = saved }
        case .resolve:
            break
        }
    }

    private static func reset(_ entry: Entry?, _ options: FactoryResetOptions) -> Entry? {
        guard var entry, !options.contains(.all) else { return nil }
        if options.contains(.registration) { entry.registration = nil }
        if options.contains(.context) { entry.contexts = [:] }
        return entry
    }

    /// The tag of the closure that a resolution of `f` in container `c` must run.
    func expectedClosure(_ c: Int, _ f: ModelFactory) -> Int {
        guard let entry = containers[c].entries[f] else { return f.definition }
        let override = entry.contexts
            .filter { $0.key.isActive }
            .min { $0.key.rank < $1.key.rank }
        return override?.value ?? entry.registration ?? f.definition
    }
}

/// A seeded SplitMix64, so that a run can be replayed from its seed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}

/// Real containers driven in lockstep with the model.
private struct ModelRun {
    let seed: UInt64
    let serials = Counter()
    let containers: [any ModelContaining]
    var model: RegistrationModel
    var random: SeededGenerator
    var nextClosure = 1
    var highestSerial = 0
    var history: [String] = []

    static let resetOptions: [FactoryResetOptions] = [
        .none, .registration, .context, .scope, .all, [.registration, .context], [.registration, .scope],
    ]

    init(seed: UInt64) {
        self.seed = seed
        containers = [ModelContainer(serials: serials), ModelContainer(serials: serials), OtherModelContainer(serials: serials)]
        model = RegistrationModel(containers: containers.count)
        random = SeededGenerator(state: seed)
    }

    mutating func randomStep() -> ModelStep {
        let c = Int.random(in: 0..<containers.count, using: &random)
        let f = ModelFactory.allCases.randomElement(using: &random)!
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<15:
            nextClosure += 1
            return .register(container: c, factory: f, closure: nextClosure)
        case 15..<25:
            nextClosure += 1
            let contexts = ModelContext.allCases.filter { _ in Bool.random(using: &random) }
            return .context(container: c, factory: f, contexts: contexts.isEmpty ? [.debug] : contexts, closure: nextClosure)
        case 25..<37:
            return .resetFactory(container: c, factory: f, options: Self.resetOptions.randomElement(using: &random)!)
        case 37..<42:
            return .resetContainer(container: c, options: Self.resetOptions.randomElement(using: &random)!)
        case 42..<49:
            return .push(container: c)
        case 49..<56:
            return .pop(container: c)
        default:
            return .resolve(container: c, factory: f, parameter: Int.random(in: 0..<5, using: &random))
        }
    }

    /// Runs `step` on the real container; returns a failure message, if any.
    mutating func perform(_ step: ModelStep) -> String? {
        history.append(step.description)
        switch step {
        case .register(let c, let f, let closure):
            let container = containers[c]
            let serials = self.serials
            switch f {
            case .alpha: container.alpha.register { ModelValue(closure: closure, parameter: 0, serials: serials) }
            case .beta: container.beta.register { ModelValue(closure: closure, parameter: 0, serials: serials) }
            case .gamma: container.gamma.register { ModelValue(closure: closure, parameter: $0, serials: serials) }
            }
        case .context(let c, let f, let contexts, let closure):
            let container = containers[c]
            let serials = self.serials
            for context in contexts {
                switch f {
                case .alpha:
                    container.alpha.context(context.type) { ModelValue(closure: closure, parameter: 0, serials: serials) }
                case .beta: container.beta.context(context.type) { ModelValue(closure: closure, parameter: 0, serials: serials) }
                case .gamma:
                    container.gamma.context(context.type) { ModelValue(closure: closure, parameter: $0, serials: serials) }
                }
            }
        case .resetFactory(let c, let f, let options):
            let container = containers[c]
            switch f {
            case .alpha: container.alpha.reset(options)
            case .beta: container.beta.reset(options)
            case .gamma: container.gamma.reset(options)
            }
        case .resetContainer(let c, let options):
            containers[c].manager.reset(options: options)
        case .push(let c):
            containers[c].manager.push()
        case .pop(let c):
            containers[c].manager.pop()
        case .resolve(let c, let f, let parameter):
            let container = containers[c]
            let value: ModelValue
            switch f {
            case .alpha: value = container.alpha()
            case .beta: value = container.beta.resolve()
            case .gamma: value = container.gamma(parameter)
            }
            let expected = model.expectedClosure(c, f)
            let expectedParameter = f == .gamma ? parameter : 0
            defer { highestSerial = max(highestSerial, value.serial) }
            if value.closure != expected {
                return failure("\(step) ran closure \(value.closure), expected \(expected)")
            }
            if value.parameter != expectedParameter {
                return failure("\(step) built with parameter \(value.parameter), expected \(expectedParameter)")
            }
            if value.serial <= highestSerial {
                return failure("\(step) returned an earlier instance; a unique factory must build a new one")
            }
        }
        model.apply(step)
        return nil
    }

    private func failure(_ message: String) -> String {
        "seed \(seed): \(message), after \(history.suffix(12).joined(separator: "; "))"
    }
}

@Suite struct ModelBasedTests {
    /// Seeds that always run; one random seed is added to each run.
    static let seeds: [UInt64] = [1, 2, 3, 42, 1_234, 0xFAC7, 0xDEAD_BEEF, 9_876_543_210]
    static let steps = 500

    @Test(arguments: seeds + [UInt64.random(in: 0...UInt64.max)])
    func resolutionsFollowTheModel(seed: UInt64) {
        // The argument context's flag, under a name no other test uses; it stays set.
        FactoryContext.setArg(ModelContext.flag, forKey: ModelContext.flag)
        var run = ModelRun(seed: seed)
        for _ in 0..<Self.steps {
            let failure = run.perform(run.randomStep())
            #expect(failure == nil, "\(failure ?? "")")
            if failure != nil { return }
        }
    }

    @Test func theModelSeesTheContextsItAssumes() {
        FactoryContext.setArg(ModelContext.flag, forKey: ModelContext.flag)
        #expect(FactoryContext.current.isTest)
        #expect(FactoryContext.current.runtimeArguments[ModelContext.flag] != nil)
        #if DEBUG
        #expect(FactoryContext.current.isDebug)
        #else
        #expect(!FactoryContext.current.isDebug)
        #endif
    }
}
