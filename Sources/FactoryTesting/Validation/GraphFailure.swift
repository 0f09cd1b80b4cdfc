/// One thing graph validation found wrong with a listed factory.
public struct GraphFailure: Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The factory's resolution came back to a factory already being resolved.
        case circularDependency
        /// A `promised()` factory was resolved with nothing registered for it (only
        /// while its container's `promiseTriggersError` is on, as in DEBUG builds).
        case unregisteredPromise
        /// The key path listed does not lead to a factory.
        case notAFactory
        /// The key path leads to a parameter factory, listed without a parameter.
        case missingParameter
        /// A factory that cannot be resolved here: a main-actor closure off the
        /// main thread, an invalid time-to-live, or a resolution that did not
        /// finish within a minute (a deadlock, or a factory that waits for the
        /// main actor while the validation, called from it, blocks it). After
        /// such a timeout, validation stops: the entries after it are not resolved.
        case misuse
        /// A longer-lived factory's build resolved a shorter-lived one, and keeps
        /// it past its scope: a singleton resolving a cached, shared,
        /// time-to-live, graph or per-request factory, or a cached factory of a
        /// long-lived container resolving a factory of a per-request container.
        /// ``GraphFailure/holderChain`` ends with the holder, ``GraphFailure/chain``
        /// with the captured factory. Resolution goes on.
        case captiveDependency
        /// An async factory's closure threw: ``GraphFailure/chain`` ends with the
        /// innermost factory whose closure threw it. Reported by catalog validation
        /// (``FactoryCatalog``); `validateGraph` leaves such errors to the factory.
        case thrownError
        /// An async factory's resolution did not finish within the catalog
        /// validation's time limit; validation gave up waiting and went on.
        case timedOut
    }

    /// The listed factory whose resolution failed, as `Container.name<Type>`.
    public let entry: String
    /// What went wrong.
    public let kind: Kind
    /// The resolutions in progress when it went wrong, outermost first. For a
    /// cycle it ends with the factory that was resolved again.
    public let chain: [FactoryKey]
    /// The message Factory would have stopped the program with, or why the entry could not be resolved.
    public let message: String
    /// For a ``Kind/captiveDependency``, the resolutions from the outermost one
    /// down to the factory that keeps the captured instance (a prefix of
    /// ``chain``); empty for other kinds.
    public internal(set) var holderChain: [FactoryKey] = []

    /// The part of ``chain`` that forms the cycle, first and last element equal;
    /// empty when this is not a ``Kind/circularDependency``.
    public var cycle: [FactoryKey] {
        guard kind == .circularDependency, let last = chain.last,
            let start = chain.firstIndex(of: last), start < chain.count - 1
        else { return [] }
        return Array(chain[start...])
    }

    /// `entry: message`.
    public var description: String {
        "\(entry): \(message)"
    }
}
