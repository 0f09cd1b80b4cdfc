import FactoryScopes
import FactoryTestSupport
import Testing

// Every modifier, applied at run time on every kind of factory after a cached
// instance exists, is honoured by the next resolution: none is left to the
// lock-free hit, which would return the cached instance and ignore it.

/// What a factory of the table built: who built it, for which parameter, and which build it was.
final class TableValue: Sendable {
    let builder: String
    let parameter: Int
    let serial: Int

    init(_ builder: String, _ parameter: Int = 0) {
        self.builder = builder
        self.parameter = parameter
        serial = TableValue.serials.increment()
    }

    private static let serials = Counter()
}

final class TableContainer: ManagedContainer {
    let manager = ContainerManager()

    var plain: Factory<TableValue> { self { TableValue("definition") }.cached }
    var parameter: ParameterFactory<Int, TableValue> { self { TableValue("definition", $0) }.cached }
    var async: AsyncFactory<TableValue> { self { TableValue("definition") }.cached }
    var asyncParameter: AsyncParameterFactory<Int, TableValue> { self { TableValue("definition", $0) }.cached }
}

/// A modifier applied at run time, and what the next resolution must give.
enum TableModifier: String, CaseIterable, Sendable {
    case register, context, onArg, onArgs, onTest, onDebug, onDevice, onSimulator, onPreview
    case decorator, scope, timeToLive, scopeOnParameters

    static let argument = "ModifierTableTests.argument"

    /// The modifiers a factory without parameter takes.
    static let withoutParameter = allCases.filter { $0 != .scopeOnParameters }

    /// Applies the modifier to `factory`; `make` makes a closure of the factory's kind
    /// that builds a value naming its builder, and `decorated` records what a
    /// decorator sees. `scopeOnParameters`, a property, is applied by the caller.
    func apply<F: FactoryModifying>(to factory: F, _ make: (String) -> F.Closure, decorated: Collector<F.T>) {
        switch self {
        case .register: factory.register(factory: make("register"))
        case .context: factory.context(.test, factory: make("context"))
        case .onArg: factory.onArg(Self.argument, factory: make("onArg"))
        case .onArgs: factory.onArgs(["absent", Self.argument], factory: make("onArgs"))
        case .onTest: factory.onTest(factory: make("onTest"))
        case .onDebug: factory.onDebug(factory: make("onDebug"))
        case .onDevice: factory.onDevice(factory: make("onDevice"))
        case .onSimulator: factory.onSimulator(factory: make("onSimulator"))
        case .onPreview: factory.onPreview(factory: make("onPreview"))
        case .decorator: factory.decorator { decorated.append($0) }
        case .scope: factory.scope(.unique)
        // One nanosecond: expired by the next resolution.
        case .timeToLive: factory.timeToLive(1e-9)
        case .scopeOnParameters: break
        }
    }

    /// Who builds the next instance on this machine (Linux or macOS, not a
    /// simulator or preview), or `nil` when the cached instance stays.
    /// `register` drops what is cached; a context override keeps it, as in Factory.
    var nextBuilder: String? {
        switch self {
        case .register: return rawValue
        case .scope, .timeToLive, .scopeOnParameters: return "definition"
        default: return nil
        }
    }

    /// Who builds once the cached instance is dropped: the override that applies
    /// here (a DEBUG build's `onDebug`, never `onSimulator` or `onPreview`), else the definition.
    var builderAfterReset: String {
        switch self {
        case .register, .context, .onArg, .onArgs, .onTest, .onDevice: return rawValue
        case .onDebug:
            #if DEBUG
            return rawValue
            #else
            return "definition"
            #endif
        default: return "definition"
        }
    }
}

@Suite(.serialized) struct ModifierTableTests {
    /// Checks `next`, resolved after `modifier` was applied on a factory whose
    /// cached instance is `cached`, and `afterReset`, resolved after the factory's
    /// cached instance was dropped.
    private func check(
        _ modifier: TableModifier, kind: String, cached: TableValue, next: TableValue, afterReset: TableValue,
        decorated: [TableValue]
    ) {
        let label = Comment(rawValue: "\(modifier) on \(kind)")
        if let builder = modifier.nextBuilder {
            #expect(next.builder == builder, label)
            #expect(next.serial != cached.serial, label)
        } else {
            #expect(next === cached, label)
        }
        #expect(afterReset.builder == modifier.builderAfterReset, label)
        if modifier == .decorator {
            #expect(decorated.count == 2 && decorated.first === cached && decorated.last === afterReset, label)
        }
    }

    @Test(arguments: TableModifier.withoutParameter) func aSynchronousFactory(_ modifier: TableModifier) {
        FactoryContext.setArg(TableModifier.argument, forKey: TableModifier.argument)
        defer { FactoryContext.removeArg(forKey: TableModifier.argument) }
        let container = TableContainer()
        let cached = container.plain()
        let decorated = Collector<TableValue>()
        modifier.apply(to: container.plain, { builder in { _ in TableValue(builder) } }, decorated: decorated)
        let next = container.plain()
        container.plain.reset(.scope)
        check(
            modifier, kind: "Factory", cached: cached, next: next, afterReset: container.plain(),
            decorated: decorated.values)
    }

    @Test(arguments: TableModifier.allCases) func aParameterFactory(_ modifier: TableModifier) {
        FactoryContext.setArg(TableModifier.argument, forKey: TableModifier.argument)
        defer { FactoryContext.removeArg(forKey: TableModifier.argument) }
        let container = TableContainer()
        let cached = container.parameter(1)
        let decorated = Collector<TableValue>()
        modifier.apply(to: container.parameter, { builder in { TableValue(builder, $0) } }, decorated: decorated)
        // A modifier property persists after `once()`, and drops what is cached.
        if modifier == .scopeOnParameters { _ = container.parameter.once().scopeOnParameters }
        let next = container.parameter(modifier == .scopeOnParameters ? 2 : 1)
        container.parameter.reset(.scope)
        check(
            modifier, kind: "ParameterFactory", cached: cached, next: next, afterReset: container.parameter(1),
            decorated: decorated.values)
        if modifier == .scopeOnParameters { #expect(next.parameter == 2) }
    }

    @Test(arguments: TableModifier.withoutParameter) func anAsyncFactory(_ modifier: TableModifier) async throws {
        FactoryContext.setArg(TableModifier.argument, forKey: TableModifier.argument)
        defer { FactoryContext.removeArg(forKey: TableModifier.argument) }
        let container = TableContainer()
        let cached = try await container.async()
        let decorated = Collector<TableValue>()
        modifier.apply(to: container.async, { builder in { @Sendable _ in TableValue(builder) } }, decorated: decorated)
        let next = try await container.async()
        container.async.reset(.scope)
        let afterReset = try await container.async()
        check(
            modifier, kind: "AsyncFactory", cached: cached, next: next, afterReset: afterReset,
            decorated: decorated.values)
    }

    @Test(arguments: TableModifier.allCases) func anAsyncParameterFactory(_ modifier: TableModifier) async throws {
        FactoryContext.setArg(TableModifier.argument, forKey: TableModifier.argument)
        defer { FactoryContext.removeArg(forKey: TableModifier.argument) }
        let container = TableContainer()
        let cached = try await container.asyncParameter(1)
        let decorated = Collector<TableValue>()
        modifier.apply(
            to: container.asyncParameter, { builder in { @Sendable in TableValue(builder, $0) } }, decorated: decorated)
        if modifier == .scopeOnParameters { _ = container.asyncParameter.once().scopeOnParameters }
        let next = try await container.asyncParameter(modifier == .scopeOnParameters ? 2 : 1)
        container.asyncParameter.reset(.scope)
        let afterReset = try await container.asyncParameter(1)
        check(
            modifier, kind: "AsyncParameterFactory", cached: cached, next: next, afterReset: afterReset,
            decorated: decorated.values)
        if modifier == .scopeOnParameters { #expect(next.parameter == 2) }
    }
}
