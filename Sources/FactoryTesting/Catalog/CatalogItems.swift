import Dispatch
import FactoryCore

/// Turns the factories of a catalog into validation items.
enum CatalogItems {
    /// A factory read from its container: an item to resolve, or why it cannot be.
    enum Made: Sendable {
        /// Resolve `item`; on the main thread when `onMainActor`.
        case item(ValidationItem, onMainActor: Bool)
        /// Not resolved: why, and what to supply.
        case unchecked(String)
    }

    /// Finds the container of `C` and reads the factory from it with `make`, on the calling thread.
    static func prepare<C: ManagedContainer>(
        _: C.Type, _ context: CatalogContext, _ make: (C) -> Made
    ) -> CatalogPreparation {
        guard let container = context.samples.container(C.self) else { return .unchecked(noInstance(C.self)) }
        switch make(container) {
        case .item(let item, let onMainActor): return .item(item, container: container, onMainActor: onMainActor)
        case .unchecked(let reason): return .unchecked(reason)
        }
    }

    /// Finds the container of `C` on the calling thread (a task-local `shared` is
    /// read there); `make` reads the factory later, on the main actor.
    static func prepareOnMainActor<C: ManagedContainer>(
        _: C.Type, _ context: CatalogContext, _ make: @escaping @MainActor @Sendable (C) -> Made
    ) -> CatalogPreparation {
        guard let container = context.samples.container(C.self) else { return .unchecked(noInstance(C.self)) }
        return .mainActor(container: container) { make(container) }
    }

    static func plain<T>(_ factory: Factory<T>) -> Made {
        .item(ValidationItem(name: "\(factory.key)") { _ = factory() }, onMainActor: factory.registration.isolation == .main)
    }

    static func parameter<P, T>(
        _ factory: ParameterFactory<P, T>, at keyPath: AnyKeyPath, _ name: String, _ context: CatalogContext
    ) -> Made {
        guard let sample = context.samples.sample(for: keyPath, P.self) else { return .unchecked(noSample(P.self, name)) }
        // The sample crosses to the validation thread as the Sendable value it was given as.
        let item = ValidationItem(name: "\(factory.key)") {
            if let parameter = sample as? P { _ = factory(parameter) }
        }
        return .item(item, onMainActor: factory.registration.isolation == .main)
    }

    static func async<T>(_ factory: AsyncFactory<T>, _ context: CatalogContext) -> Made {
        let item = ValidationItem(
            name: "\(factory.key)", catalogAsync: { _ = try await factory() }, timeLimit: context.asyncTimeLimit)
        return .item(item, onMainActor: false)
    }

    static func asyncParameter<P, T>(
        _ factory: AsyncParameterFactory<P, T>, at keyPath: AnyKeyPath, _ name: String, _ context: CatalogContext
    ) -> Made {
        guard let sample = context.samples.sample(for: keyPath, P.self) as? P else {
            return .unchecked(noSample(P.self, name))
        }
        let item = ValidationItem(
            name: "\(factory.key)", catalogAsync: { _ = try await factory(sample) }, timeLimit: context.asyncTimeLimit)
        return .item(item, onMainActor: false)
    }

    static func noInstance<C>(_: C.Type) -> String {
        "\(C.self) is not a SharedContainer, so validation has no instance of it: "
            + "pass one with ParameterSamples { $0.use(\(C.self)(...)) }"
    }

    static func noSample<P>(_: P.Type, _ name: String) -> String {
        let property = name.split(separator: ".").last.map(String.init) ?? name
        let container = name.dropLast(property.count + 1)
        return "takes a parameter of type \(P.self) and no sample was given: add one to the ParameterSamples, "
            + "$0.add(<\(P.self)>) for every factory that takes one, or $0.add(<\(P.self)>, for: \\\(container).\(property))"
    }
}

extension ValidationItem {
    /// An async factory of a catalog: resolved like ``init(name:resolveAsync:)``,
    /// and in addition an error its closure throws is reported with the chain of
    /// the factory that threw it, and validation waits at most `timeLimit` seconds.
    init(name: String, catalogAsync resolveAsync: @escaping @Sendable () async throws -> Void, timeLimit: Double) {
        self.init(name: name) {
            let log = AsyncThrowLog()
            let outcome = LockedBox<(any Error)?>(nil)
            let operation: @Sendable () async -> Void = {
                do {
                    try await AsyncValidation.$isActive.withValue(true) {
                        try await AsyncValidation.$thrown.withValue(AsyncValidation.ThrowHook(log.add)) {
                            try await resolveAsync()
                        }
                    }
                } catch {
                    outcome.withLock { $0 = error }
                }
            }
            let deadline = DispatchTime.now() + .nanoseconds(Int(timeLimit * 1_000_000_000))
            let finished = Self.runAsync(operation, deadline: deadline)
            guard let worker = ResolutionContext.current.validation as? ValidationWorker else { return }
            guard finished else {
                worker.record(
                    .timedOut, chain: [],
                    message: "FactoryTesting: \(name) did not finish within \(timeLimit) s; validation stopped waiting "
                        + "and went on (a build that never ends, or one waiting for the main actor while the test holds it)")
                return
            }
            switch outcome.withLock({ $0 }) {
            case let failure as AsyncValidationFailure:
                worker.record(failure.error, chain: failure.chain)
            case let error?:
                let thrower = Self.thrower(in: log.all)
                var message = "FactoryTesting: \(thrower?.chain.last?.description ?? name) threw \(thrower?.error ?? "\(error)")"
                if let thrower, thrower.error != "\(error)" { message += "; \(name) threw \(error)" }
                worker.record(.thrownError, chain: thrower?.chain ?? [], message: message)
            case nil:
                break
            }
        }
    }

    /// The closure that threw the error the resolution ended with: from the last
    /// closure that threw (the outermost), down through each closure it resolved
    /// that threw just before it. An error a closure caught and recovered from is
    /// not on that path.
    static func thrower(in log: [AsyncThrowLog.Entry]) -> AsyncThrowLog.Entry? {
        guard var current = log.last else { return nil }
        for entry in log.dropLast().reversed() {
            guard entry.chain.count > current.chain.count, entry.chain.starts(with: current.chain) else { break }
            current = entry
        }
        return current
    }
}

/// What async closures threw during one validated resolution, in order, with their chains.
final class AsyncThrowLog: Sendable {
    struct Entry: Sendable {
        let chain: [FactoryKey]
        let error: String
    }

    private let entries = LockedBox<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }

    /// Thrown by the closure of the innermost resolution of `chain`.
    @Sendable func add(_ chain: [FactoryKey], _ error: any Error) {
        entries.withLock { $0.append(Entry(chain: chain, error: String(describing: error))) }
    }
}
