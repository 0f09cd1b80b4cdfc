// A factory's options: what its modifiers set, in one place. The definition keeps
// the ones its modifiers set in an ``OptionsBox`` (scope and time to live, which the
// lock-free hit reads, and two flags inline beside it), and a container keeps the
// ones applied at run time in the factory's slot. ``ResolvedOptions`` is what one
// resolution uses after both are merged. Writing a definition's options marks it
// `.general` (``FactoryRegistration/modify(persist:_:)``), and the lock-free hit and
// the direct build run only for a definition without that mark in a container with
// no persisted options (``FactoryRegistration/fastStep(parameter:)``), so a new
// option cannot be ignored by them: adding one is a field here, its line in the
// merge below, and its modifier.

/// What one factory's modifiers set, in its definition or (applied at run time,
/// or by `once()`) in a container, where each field wins over the definition's.
package struct FactoryOptions: Sendable {
    /// `register`'s closure; persisted only.
    package var registration: RegistrationBoxBase?
    package var contexts: [ContextOverride] = []
    /// A scope set at run time; `scope` is that scope (`nil`: the container's
    /// default). The definition keeps its own inline (``FactoryRegistration/scopeReference``).
    package var hasScope = false
    package var scope: Scope?
    /// Time-to-live in nanoseconds set at run time (0: none); the definition keeps its own inline.
    package var ttl: UInt64?
    package var decorator: DecoratorBoxBase?
    package var shutdown: ShutdownHandler?
    package var scopeOnParameters: Bool?
    /// Made by `promised()` (persisted by `once()`; the definition keeps a flag).
    package var promised = false
    /// `once()` persisted the definition's modifiers; the definition's own are ignored from now on.
    package var onceApplied = false

    package init() {}

    package var isEmpty: Bool {
        registration == nil && contexts.isEmpty && !hasScope && ttl == nil && decorator == nil && shutdown == nil
            && scopeOnParameters == nil && !promised && !onceApplied
    }

    /// Adds what `definition` sets to these persisted options where they set
    /// nothing yet: `once()` persisting its definition.
    mutating func adopt(_ definition: FactoryOptions, scope: Scope?, hasScope: Bool, ttl: UInt64) {
        if !self.hasScope && hasScope {
            self.hasScope = true
            self.scope = scope
        }
        if self.ttl == nil && ttl != 0 { self.ttl = ttl }
        if decorator == nil { decorator = definition.decorator }
        if shutdown == nil { shutdown = definition.shutdown }
        if scopeOnParameters == nil { scopeOnParameters = definition.scopeOnParameters }
        promised = promised || definition.promised
        for context in definition.contexts where !contexts.contains(where: { $0.type == context.type }) {
            contexts.append(context)
        }
    }
}

/// Options, immutable, shared by reference: a definition's (copied with every
/// factory value at the cost of one reference) or a container's for one factory
/// (published atomically and read lock-free). A change makes a new one.
@usableFromInline
package final class OptionsBox: Sendable {
    package let value: FactoryOptions

    package init(_ value: FactoryOptions) {
        self.value = value
    }
}

/// A context override: use `box` when `type` matches the running context.
@usableFromInline
package struct ContextOverride: Sendable {
    package let type: FactoryContextType
    package let box: RegistrationBoxBase

    package init(type: FactoryContextType, box: RegistrationBoxBase) {
        self.type = type
        self.box = box
    }
}

/// How a resolution resolves right now: where the closure comes from and the
/// modifiers that apply, after a container's options and the running context are
/// merged over the definition (``init(_:_:defaultScope:)``). The same for every kind
/// of factory. The closure and decorator stay in their boxes and are cast back to
/// their types only where they are called.
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
    var decorator: DecoratorBoxBase?
    var ttl: UInt64
    var scopeOnParameters: Bool
    var promised: Bool
    /// How a cached instance is shut down.
    var shutdown: ShutdownHandler?

    /// Whether the definition's own closure builds (no registration or context
    /// override applies): what strict mode calls unmocked.
    var usesDefinition: Bool { code == UInt8(ascii: "F") }

    /// What a resolution uses, for every kind of factory: a context override
    /// (run-time over definition, by rank) beats a registration, which beats the
    /// definition's closure; persisted modifiers beat the definition's; without a
    /// scope, the container's default scope applies.
    ///
    /// A context override written in the definition is part of the definition: it
    /// has no registration box, so its instance is kept where the definition's is.
    init(_ definition: FactoryRegistration, _ persisted: OptionsBox?, defaultScope: Scope?) {
        // Read field by field through the references: a copy of a whole options
        // value would retain and release every reference it holds.
        closureBox = nil
        isolation = definition.isolation
        code = UInt8(ascii: "F")
        scope = definition.traits.contains(.hasScope) ? definition.scope : nil
        ttl = definition.ttl
        scopeOnParameters = definition.traits.contains(.scopeOnParameters)
        promised = definition.traits.contains(.promised)
        var definitionContexts = false
        if let own = definition.options {
            decorator = own.value.decorator
            shutdown = own.value.shutdown
            definitionContexts = !own.value.contexts.isEmpty
        }
        if definitionContexts || persisted?.value.contexts.isEmpty == false,
            let best = Self.bestContext(
                persisted: persisted?.value.contexts ?? [], definition: definition.options?.value.contexts ?? [])
        {
            closureBox = best.box
            isolation = best.box.isolation
            code = UInt8(ascii: "O")
            box = best.persisted ? best.box : nil
        } else if let registered = persisted?.value.registration {
            closureBox = registered
            isolation = registered.isolation
            code = UInt8(ascii: "R")
            box = registered
        }
        if let persisted = persisted?.value {
            if persisted.hasScope { scope = persisted.scope }
            if let decorator = persisted.decorator { self.decorator = decorator }
            if let shutdown = persisted.shutdown { self.shutdown = shutdown }
            if let ttl = persisted.ttl { self.ttl = ttl }
            if let byParameter = persisted.scopeOnParameters { scopeOnParameters = byParameter }
            promised = promised || persisted.promised
        }
        if scope == nil { scope = defaultScope }
    }

    /// What a resolution of `registration` uses now, with the container's `flags`:
    /// its definition, what its container persisted for it and the container's
    /// default scope, read without a lock.
    static func now(_ registration: FactoryRegistration, flags: Int) -> ResolvedOptions {
        let manager = registration.manager
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(registration.key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        return ResolvedOptions(registration, options, defaultScope: defaultScope)
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
