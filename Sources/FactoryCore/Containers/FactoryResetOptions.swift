/// What a `reset` clears. On a factory, `.registration` restores its definition, `.context` removes its
/// context overrides, `.scope` drops its cached instance (whatever its scope, singleton included) and
/// `.all` does all of that and forgets persisted modifiers. On a container manager the same options
/// apply to every factory; singletons are reset only when `.singletons` is named.
public struct FactoryResetOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Registrations made with `register`.
    public static let registration = FactoryResetOptions(rawValue: 1 << 0)
    /// Cached instances of scopes other than singleton (for a single factory: of any scope).
    public static let scope = FactoryResetOptions(rawValue: 1 << 1)
    /// Context overrides (`onTest`, `onArg`, ...).
    public static let context = FactoryResetOptions(rawValue: 1 << 2)
    /// Everything above, plus persisted modifiers.
    public static let all = FactoryResetOptions(rawValue: 1 << 3 | 1 << 0 | 1 << 1 | 1 << 2)
    /// Singletons; only a container-wide reset honours it, and only when named.
    public static let singletons = FactoryResetOptions(rawValue: 1 << 4)
    /// Nothing.
    public static let none: FactoryResetOptions = []
}
