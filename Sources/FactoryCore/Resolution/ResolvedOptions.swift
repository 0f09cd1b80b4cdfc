/// How a resolution resolves right now: where the closure comes from and the
/// modifiers that apply, after persisted options and contexts are merged over
/// the definition (``GeneralPath/merge(_:_:defaultScope:)``). The same for every
/// kind of factory. The closure and decorator stay in their boxes and are cast
/// back to their types only where they are called.
struct ResolvedOptions {
    /// The box whose closure builds the instance; `nil` for the definition's closure.
    var closureBox: RegistrationBoxBase?
    var isolation: ClosureIsolation
    /// Trace code of a new instance (ASCII): `F` definition, `R` registration, `O` context override.
    var code: UInt8
    /// The persisted registration or override box the closure came from, if any:
    /// a strategy may keep what it builds with it (see ``RegistrationBoxBase/cells``).
    var box: RegistrationBoxBase?
    var scope: Scope?
    /// A decorator persisted at run time, which replaces the definition's.
    var decoratorBox: DecoratorBoxBase?
    var ttl: UInt64
    var scopeOnParameters: Bool
    /// How a cached instance is shut down: the persisted `onShutdown`, else the definition's.
    var shutdown: ShutdownHandlerBase?

    /// Whether the definition's own closure builds (no registration or context
    /// override applies): what strict mode calls unmocked.
    var usesDefinition: Bool { code == UInt8(ascii: "F") }
}

extension GeneralPath {
    /// What a resolution of `registration` uses now, with the container's `flags`:
    /// ``merge(_:_:defaultScope:)`` of its definition, what its container persisted
    /// for it and the container's default scope, read without a lock.
    static func effective(_ registration: FactoryRegistration, flags: Int) -> ResolvedOptions {
        let manager = registration.manager
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(registration.key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        return merge(registration, options, defaultScope: defaultScope)
    }

    /// What a resolution uses, for every kind of factory: a context override
    /// (run-time over definition, by rank) beats a registration, which beats the
    /// definition's closure; persisted modifiers beat the definition's; without a
    /// scope, the container's default scope applies.
    ///
    /// A context override written in the definition is part of the definition: it
    /// has no registration box, so its instance is kept where the definition's is.
    static func merge(_ definition: FactoryRegistration, _ persisted: PersistedOptions?, defaultScope: Scope?) -> ResolvedOptions
    {
        let extras = definition.extras
        var result = ResolvedOptions(
            closureBox: nil, isolation: definition.isolation, code: UInt8(ascii: "F"), box: nil,
            scope: definition.traits.contains(.hasScope) ? definition.scope : nil, decoratorBox: nil, ttl: definition.ttl,
            scopeOnParameters: definition.traits.contains(.scopeOnParameters), shutdown: extras?.shutdown)
        // Read field by field through the reference: a copy of the whole options
        // value would retain and release every reference it holds.
        let persistedContexts = persisted?.value.contexts ?? []
        if !persistedContexts.isEmpty || extras?.contexts != nil,
            let best = bestContext(persisted: persistedContexts, definition: extras?.contexts ?? [])
        {
            result.closureBox = best.box
            result.isolation = best.box.isolation
            result.code = UInt8(ascii: "O")
            result.box = best.persisted ? best.box : nil
        } else if let registered = persisted?.value.registration {
            result.closureBox = registered
            result.isolation = registered.isolation
            result.code = UInt8(ascii: "R")
            result.box = registered
        }
        if let persisted {
            if persisted.value.hasScope { result.scope = persisted.value.scope }
            result.decoratorBox = persisted.value.decorator
            if let shutdown = persisted.value.shutdown { result.shutdown = shutdown }
            if let ttl = persisted.value.ttl { result.ttl = ttl }
            if let byParameter = persisted.value.scopeOnParameters { result.scopeOnParameters = byParameter }
        }
        if result.scope == nil { result.scope = defaultScope }
        return result
    }

    /// The override that applies in the running context: the lowest rank wins;
    /// for the same context type a persisted override wins over the definition's,
    /// and among persisted ones the last added.
    static func bestContext(
        persisted: [ContextOverride], definition: [ContextOverride]
    ) -> (box: RegistrationBoxBase, persisted: Bool)? {
        let (current, honors) = FactoryContext.matching
        var best: (rank: Int, box: RegistrationBoxBase, persisted: Bool)?
        for override in definition where override.type.matches(current, honorsLaunchOverridesInRelease: honors) {
            if persisted.contains(where: { $0.type == override.type }) { continue }
            if best == nil || override.type.rank < best!.rank { best = (override.type.rank, override.box, false) }
        }
        for override in persisted where override.type.matches(current, honorsLaunchOverridesInRelease: honors) {
            if best == nil || override.type.rank <= best!.rank { best = (override.type.rank, override.box, true) }
        }
        return best.map { ($0.box, $0.persisted) }
    }
}
