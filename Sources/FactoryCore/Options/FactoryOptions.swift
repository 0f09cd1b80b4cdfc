// Writing a definition's options marks it `.general` (``FactoryRegistration/modify(persist:_:)``),
// and the lock-free hit and direct build run only without that mark and with no persisted options
// (``FactoryRegistration/fastStep(parameter:)``), so they cannot ignore a new option: adding one
// is a field here, its line in the merge below, and its modifier.

/// What a factory's modifiers set, in its definition or (at run time, or by `once()`) in a
/// container, where each field wins over the definition's.
package struct FactoryOptions: Sendable {
    package var registration: RegistrationBoxBase?  // persisted only
    package var contexts: [ContextOverride] = []
    /// Run-time only: the definition keeps scope and ttl inline (``FactoryRegistration/scopeReference``).
    /// A `nil` `scope` with `hasScope` is the container's default.
    package var hasScope = false
    package var scope: Scope?
    package var ttl: UInt64?  // nanoseconds, 0: none
    package var decorator: DecoratorBoxBase?
    package var shutdown: ShutdownHandler?
    package var scopeOnParameters: Bool?
    package var promised = false
    /// `once()` persisted the definition's modifiers; the definition's own are ignored from now on.
    package var onceApplied = false

    package init() {}

    package var isEmpty: Bool {
        registration == nil && contexts.isEmpty && !hasScope && ttl == nil && decorator == nil && shutdown == nil
            && scopeOnParameters == nil && !promised && !onceApplied
    }

    /// `once()`: fills what these persisted options leave unset from `definition`.
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

/// Immutable options shared by reference: a definition's (copied with each factory value for one
/// reference) or a container's (published atomically, read lock-free). A change makes a new one.
@usableFromInline
package final class OptionsBox: Sendable {
    package let value: FactoryOptions

    package init(_ value: FactoryOptions) { self.value = value }
}

@usableFromInline
package struct ContextOverride: Sendable {
    package let type: FactoryContextType
    package let box: RegistrationBoxBase
}

/// What one resolution uses, for every kind: a container's options and the running context
/// merged over the definition. Closure and decorator stay boxed until called.
struct ResolvedOptions {
    var closureBox: RegistrationBoxBase?  // nil: the definition's closure
    var isolation: ClosureIsolation
    /// Trace code of a new instance (ASCII): `F` definition, `R` registration, `O` context override.
    var code: UInt8
    /// The persisted box the closure came from: a strategy may keep instances with it (``RegistrationBoxBase/cells``).
    var box: RegistrationBoxBase?
    var scope: Scope?
    var decorator: DecoratorBoxBase?
    var ttl: UInt64
    var scopeOnParameters: Bool
    var promised: Bool
    var shutdown: ShutdownHandler?

    /// No registration or context override applies: what strict mode calls unmocked.
    var usesDefinition: Bool { code == UInt8(ascii: "F") }

    /// A context override (run-time over definition, by rank) beats a registration, which beats
    /// the definition; persisted modifiers beat the definition's; no scope means the default.
    /// A definition's own override has no box, so its instance is kept where the definition's is.
    init(_ definition: FactoryRegistration, _ persisted: OptionsBox?, defaultScope: Scope?) {
        // Field by field: copying a whole options value would retain and release each reference.
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

    /// Read without a lock; `flags` are the container's.
    static func now(_ registration: FactoryRegistration, flags: Int) -> ResolvedOptions {
        let manager = registration.manager
        let options =
            flags & ContainerManager.Flags.options != 0
            ? manager.findSlot(registration.key)?._withUnsafeGuaranteedRef({ $0.loadOptions() }) : nil
        let defaultScope = flags & ContainerManager.Flags.defaultScope != 0 ? manager.publishedDefaultScope : nil
        return ResolvedOptions(registration, options, defaultScope: defaultScope)
    }

    /// Lowest rank wins; for one context type a persisted override beats the definition's, and
    /// among persisted ones the last added.
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
