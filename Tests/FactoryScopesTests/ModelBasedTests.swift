import FactoryScopes
import FactoryTestSupport
import Testing

// Model-based test of the scope caches.
//
// Seeded random sequences of register (with and without a persisted scope), context
// overrides, factory and container resets with every option, push, pop, scope
// resets, singleton resets, dropping held instances and resolutions run on three
// containers and, step by step, on a reference model of the documented rules (see
// `CacheModel`). Each resolution must return exactly the instance the model
// predicts: a cached one (same serial number) or a new one built by the closure
// the model names. A failure names the seed and the steps before it.

extension Scope {
    fileprivate static let modelSession = Cached()
}

extension ModelContaining {
    fileprivate var cachedValue: Factory<ModelValue> {
        self { ModelValue(closure: ScopedFactory.cachedValue.definition, parameter: 0, serials: self.serials) }.cached
    }
    fileprivate var sessionValue: Factory<ModelValue> {
        self { ModelValue(closure: ScopedFactory.sessionValue.definition, parameter: 0, serials: self.serials) }
            .scope(.modelSession)
    }
    fileprivate var singletonValue: Factory<ModelValue> {
        self { ModelValue(closure: ScopedFactory.singletonValue.definition, parameter: 0, serials: self.serials) }.singleton
    }
    fileprivate var sharedValue: Factory<ModelValue> {
        self { ModelValue(closure: ScopedFactory.sharedValue.definition, parameter: 0, serials: self.serials) }.shared
    }
    fileprivate var uniqueValue: Factory<ModelValue> {
        self { ModelValue(closure: ScopedFactory.uniqueValue.definition, parameter: 0, serials: self.serials) }
    }
    fileprivate var perParameter: ParameterFactory<Int, ModelValue> {
        self { ModelValue(closure: ScopedFactory.perParameter.definition, parameter: $0, serials: self.serials) }
            .cached.scopeOnParameters
    }
    fileprivate var firstParameter: ParameterFactory<Int, ModelValue> {
        self { ModelValue(closure: ScopedFactory.firstParameter.definition, parameter: $0, serials: self.serials) }.cached
    }
}

private enum ScopeKind: CaseIterable, CustomStringConvertible {
    case unique, cached, session, singleton, shared

    var scope: Scope {
        switch self {
        case .unique: return .unique
        case .cached: return .cached
        case .session: return .modelSession
        case .singleton: return .singleton
        case .shared: return .shared
        }
    }

    var description: String {
        switch self {
        case .unique: return ".unique"
        case .cached: return ".cached"
        case .session: return ".modelSession"
        case .singleton: return ".singleton"
        case .shared: return ".shared"
        }
    }
}

private enum ScopedFactory: Int, CaseIterable, CustomStringConvertible {
    case cachedValue, sessionValue, singletonValue, sharedValue, uniqueValue, perParameter, firstParameter

    var definition: Int { -1 - rawValue }

    var definitionScope: ScopeKind {
        switch self {
        case .cachedValue, .perParameter, .firstParameter: return .cached
        case .sessionValue: return .session
        case .singletonValue: return .singleton
        case .sharedValue: return .shared
        case .uniqueValue: return .unique
        }
    }

    var takesParameter: Bool { self == .perParameter || self == .firstParameter }

    var description: String {
        switch self {
        case .cachedValue: return "cachedValue"
        case .sessionValue: return "sessionValue"
        case .singletonValue: return "singletonValue"
        case .sharedValue: return "sharedValue"
        case .uniqueValue: return "uniqueValue"
        case .perParameter: return "perParameter"
        case .firstParameter: return "firstParameter"
        }
    }
}

private enum ScopeStep: CustomStringConvertible {
    case register(container: Int, factory: ScopedFactory, closure: Int, scope: ScopeKind?)
    case onTest(container: Int, factory: ScopedFactory, closure: Int)
    case resetFactory(container: Int, factory: ScopedFactory, options: FactoryResetOptions)
    case resetContainer(container: Int, options: FactoryResetOptions)
    case resetScope(container: Int, scope: ScopeKind)
    case resetSingletons
    case push(container: Int)
    case pop(container: Int)
    /// Lets go of every `shared` instance the test holds.
    case dropShared
    case resolve(container: Int, factory: ScopedFactory, parameter: Int)

    var description: String {
        switch self {
        case .register(let c, let f, let closure, let scope):
            return "c\(c).\(f).register(\(closure))\(scope.map { ".scope(\($0))" } ?? "")"
        case .onTest(let c, let f, let closure): return "c\(c).\(f).onTest(\(closure))"
        case .resetFactory(let c, let f, let options): return "c\(c).\(f).reset(\(describe(options)))"
        case .resetContainer(let c, let options): return "c\(c).manager.reset(options: \(describe(options)))"
        case .resetScope(let c, let scope): return "c\(c).manager.reset(scope: \(scope))"
        case .resetSingletons: return "Scope.singleton.reset()"
        case .push(let c): return "c\(c).manager.push()"
        case .pop(let c): return "c\(c).manager.pop()"
        case .dropShared: return "drop shared instances"
        case .resolve(let c, let f, let p): return "c\(c).\(f)(\(p))"
        }
    }
}

private func describe(_ options: FactoryResetOptions) -> String {
    if options == .all { return ".all" }
    if options.isEmpty { return ".none" }
    let names: [(FactoryResetOptions, String)] = [
        (.registration, "registration"), (.context, "context"), (.scope, "scope"), (.singletons, "singletons"),
    ]
    return "[" + names.filter { options.contains($0.0) }.map { "." + $0.1 }.joined(separator: ", ") + "]"
}

/// The reference: registrations and caches per the documented rules.
///
/// - The closure: the test-context override, else the registration, else the definition.
/// - The scope: one persisted after `register`, else the definition's.
/// - `cached` and custom scopes keep one instance per container (per parameter with
///   `scopeOnParameters`, else the first parameter's); `shared` keeps it while someone
///   holds it.
/// - `singleton` keeps the instance where it came from: one per factory across every
///   container instance when the definition built it; one per registration (each
///   `register` or context override is a new one) when a registration did.
/// - `register` drops the factory's instances in its container (never another
///   container's, nor the definition's singleton); a context override drops nothing;
///   a persisted scope that changes drops the factory's instances in its container
///   and its registrations' singletons.
/// - A factory's `reset(.scope)` (or `.all`) drops its instances in its container,
///   its registrations' singletons, and the definition's singleton.
/// - A container's `reset(options:)` with `.scope` (or `.all`) empties its caches;
///   singletons go only with `.singletons` or `Scope.singleton.reset()`;
///   `reset(scope: .singleton)` does nothing. `reset(scope:)` drops one scope's instances.
/// - `push` saves registrations and the container's caches; `pop` restores them.
private struct CacheModel {
    struct Entry {
        var registration: Int?
        var registrationBox: Int?
        var testOverride: Int?
        var testBox: Int?
        var scope: ScopeKind?
        var isEmpty: Bool { registration == nil && testOverride == nil && scope == nil }
    }

    struct SlotKey: Hashable {
        var factory: ScopedFactory
        var parameter: Int?
    }

    struct Slot {
        var scope: ScopeKind
        var serial: Int
    }

    struct ContainerState {
        var type: Int
        var entries: [ScopedFactory: Entry] = [:]
        var cache: [SlotKey: Slot] = [:]
        var stack: [(entries: [ScopedFactory: Entry], cache: [SlotKey: Slot])] = []
    }

    /// A singleton's home: the definition of a factory of a container type, or one registration.
    enum SingletonHome: Hashable {
        case definition(type: Int)
        case registration(box: Int)
    }

    struct SingletonKey: Hashable {
        var home: SingletonHome
        var slot: SlotKey
    }

    enum Prediction {
        case cached(serial: Int)
        case new(closure: Int, parameter: Int)
    }

    var containers: [ContainerState]
    var singletons: [SingletonKey: Int] = [:]
    /// Serial numbers of `shared` instances the test still holds.
    var held: Set<Int> = []
    var boxes = 0

    init(containerTypes: [Int]) {
        containers = containerTypes.map { ContainerState(type: $0) }
    }

    private mutating func newBox() -> Int {
        boxes += 1
        return boxes
    }

    /// The registrations of `f` in container `c` that would build its singletons.
    private func boxes(_ c: Int, _ f: ScopedFactory) -> [Int] {
        guard let entry = containers[c].entries[f] else { return [] }
        return [entry.registrationBox, entry.testBox].compactMap { $0 }
    }

    private mutating func dropLocalInstances(_ c: Int, _ f: ScopedFactory) {
        containers[c].cache = containers[c].cache.filter { $0.key.factory != f }
        let owned = Set(boxes(c, f))
        singletons = singletons.filter {
            guard case .registration(let box) = $0.key.home else { return true }
            return !owned.contains(box) || $0.key.slot.factory != f
        }
    }

    mutating func apply(_ step: ScopeStep) {
        switch step {
        case .register(let c, let f, let closure, let scope):
            containers[c].entries[f, default: Entry()].registration = closure
            containers[c].entries[f, default: Entry()].registrationBox = newBox()
            containers[c].cache = containers[c].cache.filter { $0.key.factory != f }
            if let scope {
                let changed = containers[c].entries[f]?.scope != scope
                containers[c].entries[f, default: Entry()].scope = scope
                if changed { dropLocalInstances(c, f) }
            }
        case .onTest(let c, let f, let closure):
            containers[c].entries[f, default: Entry()].testOverride = closure
            containers[c].entries[f, default: Entry()].testBox = newBox()
        case .resetFactory(let c, let f, let options):
            if options.contains(.scope) {
                dropLocalInstances(c, f)
                let type = containers[c].type
                singletons = singletons.filter { $0.key.home != .definition(type: type) || $0.key.slot.factory != f }
            }
            if var entry = containers[c].entries[f] {
                if options.contains(.all) {
                    entry = Entry()
                } else {
                    if options.contains(.registration) {
                        entry.registration = nil
                        entry.registrationBox = nil
                    }
                    if options.contains(.context) {
                        entry.testOverride = nil
                        entry.testBox = nil
                    }
                }
                containers[c].entries[f] = entry.isEmpty ? nil : entry
            }
        case .resetContainer(let c, let options):
            if options.contains(.all) {
                containers[c].entries = [:]
            } else {
                for (f, var entry) in containers[c].entries {
                    if options.contains(.registration) {
                        entry.registration = nil
                        entry.registrationBox = nil
                    }
                    if options.contains(.context) {
                        entry.testOverride = nil
                        entry.testBox = nil
                    }
                    containers[c].entries[f] = entry.isEmpty ? nil : entry
                }
            }
            if options.contains(.scope) { containers[c].cache = [:] }
            if options.contains(.singletons) { singletons = [:] }
        case .resetScope(let c, let scope):
            if scope != .singleton {
                containers[c].cache = containers[c].cache.filter { $0.value.scope != scope }
            }
        case .resetSingletons:
            singletons = [:]
        case .push(let c):
            containers[c].stack.append((containers[c].entries, containers[c].cache))
        case .pop(let c):
            if let saved = containers[c].stack.popLast() {
                containers[c].entries = saved.entries
                containers[c].cache = saved.cache
            }
        case .dropShared:
            held = []
        case .resolve:
            break
        }
    }

    private func singletonKey(_ c: Int, _ f: ScopedFactory, _ key: SlotKey) -> SingletonKey {
        let entry = containers[c].entries[f]
        if let box = entry?.testOverride != nil ? entry?.testBox : entry?.registrationBox {
            return SingletonKey(home: .registration(box: box), slot: key)
        }
        return SingletonKey(home: .definition(type: containers[c].type), slot: key)
    }

    func predict(_ c: Int, _ f: ScopedFactory, parameter: Int) -> Prediction {
        let entry = containers[c].entries[f]
        let closure = entry?.testOverride ?? entry?.registration ?? f.definition
        let new = Prediction.new(closure: closure, parameter: f.takesParameter ? parameter : 0)
        let scope = entry?.scope ?? f.definitionScope
        let key = SlotKey(factory: f, parameter: f == .perParameter ? parameter : nil)
        switch scope {
        case .unique:
            return new
        case .singleton:
            return singletons[singletonKey(c, f, key)].map { .cached(serial: $0) } ?? new
        case .cached, .session, .shared:
            guard let slot = containers[c].cache[key], slot.scope == scope else { return new }
            if scope == .shared && !held.contains(slot.serial) { return new }
            return .cached(serial: slot.serial)
        }
    }

    /// Records the instance a resolution built, where its scope keeps it.
    mutating func stored(_ c: Int, _ f: ScopedFactory, parameter: Int, serial: Int) {
        let scope = containers[c].entries[f]?.scope ?? f.definitionScope
        let key = SlotKey(factory: f, parameter: f == .perParameter ? parameter : nil)
        switch scope {
        case .unique:
            break
        case .singleton:
            singletons[singletonKey(c, f, key)] = serial
        case .cached, .session, .shared:
            containers[c].cache[key] = Slot(scope: scope, serial: serial)
            if scope == .shared { held.insert(serial) }
        }
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
private struct ScopeModelRun {
    let seed: UInt64
    let serials = Counter()
    let containers: [any ModelContaining]
    var model: CacheModel
    var random: SeededGenerator
    /// The `shared` instances the test holds, so that they stay alive until dropped.
    var held: [ModelValue] = []
    var nextClosure = 1
    var highestSerial = 0
    var history: [String] = []

    static let resetOptions: [FactoryResetOptions] = [
        .none, .registration, .context, .scope, .all, [.registration, .context], [.registration, .scope],
        [.scope, .singletons],
    ]

    init(seed: UInt64, isolate: IsolatedSingletons) {
        self.seed = seed
        containers = [
            isolate(ModelContainer(serials: serials)), isolate(ModelContainer(serials: serials)),
            isolate(OtherModelContainer(serials: serials)),
        ]
        model = CacheModel(containerTypes: [0, 0, 1])
        random = SeededGenerator(state: seed)
    }

    mutating func randomStep() -> ScopeStep {
        let c = Int.random(in: 0..<containers.count, using: &random)
        let f = ScopedFactory.allCases.randomElement(using: &random)!
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<10:
            nextClosure += 1
            return .register(container: c, factory: f, closure: nextClosure, scope: nil)
        case 10..<14:
            nextClosure += 1
            return .register(
                container: c, factory: f, closure: nextClosure, scope: ScopeKind.allCases.randomElement(using: &random))
        case 14..<18:
            nextClosure += 1
            return .onTest(container: c, factory: f, closure: nextClosure)
        case 18..<26:
            return .resetFactory(container: c, factory: f, options: Self.resetOptions.randomElement(using: &random)!)
        case 26..<30:
            return .resetContainer(container: c, options: Self.resetOptions.randomElement(using: &random)!)
        case 30..<34:
            let scopes: [ScopeKind] = [.cached, .session, .singleton, .shared]
            return .resetScope(container: c, scope: scopes.randomElement(using: &random)!)
        case 34..<36:
            return .resetSingletons
        case 36..<41:
            return .push(container: c)
        case 41..<46:
            return .pop(container: c)
        case 46..<50:
            return .dropShared
        default:
            return .resolve(container: c, factory: f, parameter: Int.random(in: 0..<3, using: &random))
        }
    }

    /// Runs `step` on the real containers; returns a failure message, if any.
    mutating func perform(_ step: ScopeStep) -> String? {
        history.append(step.description)
        switch step {
        case .register(let c, let f, let closure, let scope):
            register(containers[c], f, closure: closure, scope: scope)
        case .onTest(let c, let f, let closure):
            onTest(containers[c], f, closure: closure)
        case .resetFactory(let c, let f, let options):
            reset(containers[c], f, options)
        case .resetContainer(let c, let options):
            containers[c].manager.reset(options: options)
        case .resetScope(let c, let scope):
            containers[c].manager.reset(scope: scope.scope)
        case .resetSingletons:
            Scope.singleton.reset()
        case .push(let c):
            containers[c].manager.push()
        case .pop(let c):
            containers[c].manager.pop()
        case .dropShared:
            held.removeAll()
        case .resolve(let c, let f, let parameter):
            let value = resolve(containers[c], f, parameter)
            defer { highestSerial = max(highestSerial, value.serial) }
            switch model.predict(c, f, parameter: parameter) {
            case .cached(let serial):
                if value.serial != serial {
                    let what = value.serial > highestSerial ? "a new instance" : "instance #\(value.serial)"
                    return failure("\(step) returned \(what) (closure \(value.closure)), expected cached #\(serial)")
                }
            case .new(let closure, let expectedParameter):
                if value.serial <= highestSerial {
                    return failure(
                        "\(step) returned earlier instance #\(value.serial), expected a new one from closure \(closure)")
                }
                if value.closure != closure || value.parameter != expectedParameter {
                    return failure(
                        "\(step) ran closure \(value.closure) with \(value.parameter), expected closure \(closure) with \(expectedParameter)"
                    )
                }
                model.stored(c, f, parameter: parameter, serial: value.serial)
                if (model.containers[c].entries[f]?.scope ?? f.definitionScope) == .shared { held.append(value) }
            }
        }
        model.apply(step)
        return nil
    }

    private func register(_ container: any ModelContaining, _ f: ScopedFactory, closure: Int, scope: ScopeKind?) {
        let serials = self.serials
        let make: @Sendable (Int) -> ModelValue = { ModelValue(closure: closure, parameter: $0, serials: serials) }
        switch f {
        case .cachedValue: container.cachedValue.register { make(0) }.scopeIfGiven(scope)
        case .sessionValue: container.sessionValue.register { make(0) }.scopeIfGiven(scope)
        case .singletonValue: container.singletonValue.register { make(0) }.scopeIfGiven(scope)
        case .sharedValue: container.sharedValue.register { make(0) }.scopeIfGiven(scope)
        case .uniqueValue: container.uniqueValue.register { make(0) }.scopeIfGiven(scope)
        case .perParameter: container.perParameter.register { make($0) }.scopeIfGiven(scope)
        case .firstParameter: container.firstParameter.register { make($0) }.scopeIfGiven(scope)
        }
    }

    private func onTest(_ container: any ModelContaining, _ f: ScopedFactory, closure: Int) {
        let serials = self.serials
        let make: @Sendable (Int) -> ModelValue = { ModelValue(closure: closure, parameter: $0, serials: serials) }
        switch f {
        case .cachedValue: container.cachedValue.onTest { make(0) }
        case .sessionValue: container.sessionValue.onTest { make(0) }
        case .singletonValue: container.singletonValue.onTest { make(0) }
        case .sharedValue: container.sharedValue.onTest { make(0) }
        case .uniqueValue: container.uniqueValue.onTest { make(0) }
        case .perParameter: container.perParameter.onTest { make($0) }
        case .firstParameter: container.firstParameter.onTest { make($0) }
        }
    }

    private func reset(_ container: any ModelContaining, _ f: ScopedFactory, _ options: FactoryResetOptions) {
        switch f {
        case .cachedValue: container.cachedValue.reset(options)
        case .sessionValue: container.sessionValue.reset(options)
        case .singletonValue: container.singletonValue.reset(options)
        case .sharedValue: container.sharedValue.reset(options)
        case .uniqueValue: container.uniqueValue.reset(options)
        case .perParameter: container.perParameter.reset(options)
        case .firstParameter: container.firstParameter.reset(options)
        }
    }

    private func resolve(_ container: any ModelContaining, _ f: ScopedFactory, _ parameter: Int) -> ModelValue {
        switch f {
        case .cachedValue: return container.cachedValue()
        case .sessionValue: return container.sessionValue()
        case .singletonValue: return container.singletonValue()
        case .sharedValue: return container.sharedValue()
        case .uniqueValue: return container.uniqueValue()
        case .perParameter: return container.perParameter(parameter)
        case .firstParameter: return container.firstParameter(parameter)
        }
    }

    private func failure(_ message: String) -> String {
        "seed \(seed): \(message), after \(history.suffix(12).joined(separator: "; "))"
    }
}

extension FactoryModifying {
    /// Persists `scope` when there is one (the modifier chained after `register`).
    fileprivate func scopeIfGiven(_ scope: ScopeKind?) {
        if let scope { self.scope(scope.scope) }
    }
}

@Suite struct ScopeModelBasedTests {
    /// Seeds that always run; one random seed is added to each run.
    static let seeds: [UInt64] = [1, 2, 3, 42, 1_234, 0xFAC7, 0xDEAD_BEEF, 9_876_543_210]
    static let steps = 600

    @Test(arguments: seeds + [UInt64.random(in: 0...UInt64.max)])
    func cachesFollowTheModel(seed: UInt64) {
        // Singletons of this run only: other suites reset the process's singletons.
        withIsolatedSingletons { isolate in
            var run = ScopeModelRun(seed: seed, isolate: isolate)
            for _ in 0..<Self.steps {
                let failure = run.perform(run.randomStep())
                #expect(failure == nil, "\(failure ?? "")")
                if failure != nil { return }
            }
        }
    }
}
