// Options in one shape: modifiers write a `FactoryOptions` (a definition's, or one persisted in a container), and a
// resolution reads them merged, through `ResolvedOptions`. A new option is a field here, its line in `adopt` and its
// accessor in `ResolvedOptions` (this file), its modifier, and the one place that acts on it. Writing a definition's options marks it `.general`, and a
// persisted one sets the container's `Flag.options.rawValue`: either sends resolutions down the general path, so the lock-free
// hit never skips an option.

/// What a factory's modifiers set, in its definition or (at run time, or by `once()`) in a container, where each
/// field wins over the definition's. A container keeps a `register`'s closure beside them (``Slot/registration``):
/// registering, the commonest change, then publishes one reference. The definition keeps `scope` and `ttl` inline instead (the two words the
/// lock-free hit reads, ``FactoryRegistration/scopeReference``), and `scopeOnParameters` and `promised` as traits.
@usableFromInline
package struct FactoryOptions: Sendable {
    @usableFromInline package var contexts: [ContextOverride] = []
    /// A `nil` `scope` with `hasScope` is the container's default.
    @usableFromInline package var hasScope = false
    @usableFromInline package var scope: Scope?
    @usableFromInline package var ttl: UInt64?  // nanoseconds, 0: none
    @usableFromInline package var decorator: DecoratorBoxBase?
    @usableFromInline package var shutdown: ShutdownHandler?
    @usableFromInline package var scopeOnParameters: Bool?
    @usableFromInline package var promised = false
    /// `once()` persisted the definition's modifiers; the definition's own are ignored from now on.
    @usableFromInline package var onceApplied = false

    @usableFromInline
    package init() {}

    package var isEmpty: Bool {
        contexts.isEmpty && !hasScope && ttl == nil && decorator == nil && shutdown == nil
            && scopeOnParameters == nil && !promised && !onceApplied
    }

    /// Fills what these options leave unset from `definition`'s modifiers (not its context overrides, which a
    /// resolution chooses from separately): what `once()` persists, by the rule ``ResolvedOptions`` reads them with.
    mutating func adopt(_ definition: FactoryRegistration) {
        if !hasScope && definition.traits.contains(.hasScope) {
            hasScope = true
            scope = definition.scope
        }
        if ttl == nil && definition.ttl != 0 { ttl = definition.ttl }
        if scopeOnParameters == nil && definition.traits.contains(.scopeOnParameters) { scopeOnParameters = true }
        if definition.traits.contains(.promised) { promised = true }
        guard let own = definition.options else { return }
        if decorator == nil { decorator = own.value.decorator }
        if shutdown == nil { shutdown = own.value.shutdown }
    }
}

/// Immutable options shared by reference: a definition's (copied with each factory value for one reference) or a
/// container's (published atomically, read lock-free). A change makes a new one.
@usableFromInline
package final class OptionsBox: Sendable {
    package let value: FactoryOptions

    @usableFromInline
    package init(_ value: FactoryOptions) { self.value = value }
}

@usableFromInline
package struct ContextOverride: Sendable {
    package let type: FactoryContextType
    package let box: RegistrationBoxBase
}

/// What one resolution reads, for every kind: the container's persisted options and the running context over the
/// definition's, merged once (``init(_:persisted:defaultScope:)``). It refers to both sets of options rather than
/// copying them: the fields every resolution reads are resolved here, the rest on use (``decorator``, ``shutdown``).
struct ResolvedOptions {
    /// What the merge read: the decision under the lock compares them with the current ones, and a resolution that
    /// finds a `register`, reset or default-scope change in between merges again (``Decision/retry``).
    let persisted: OptionsBox?
    let registration: RegistrationBoxBase?
    let defaultScope: Unmanaged<Scope>?  // scopes are never freed
    /// The definition's own, beside its inline scope, ttl and traits.
    let definition: OptionsBox?
    /// The scope (the container's default where none is set), the time to live in nanoseconds (0: none), and whether
    /// instances are kept per parameter.
    let scope: Scope?
    let ttl: UInt64
    let scopeOnParameters: Bool
    let promised: Bool
    /// The closure to run; `nil`: the definition's.
    var closure: RegistrationBoxBase?
    /// The persisted box `closure` came from, with which a strategy may keep instances (``RegistrationBoxBase/cells``).
    /// A definition's own context override has none: its instance is kept where the definition's is.
    var box: RegistrationBoxBase?
    var isolation: ClosureIsolation
    /// Trace code of a new instance (ASCII): `F` definition, `R` registration, `O` context override.
    var code = UInt8(ascii: "F")

    /// Each field as ``FactoryOptions/adopt(_:)`` merges it: a persisted one wins, the definition's fills the rest.
    init(
        _ registration: FactoryRegistration, persisted: OptionsBox?, registered: RegistrationBoxBase?,
        defaultScope: Unmanaged<Scope>?
    ) {
        self.persisted = persisted
        self.registration = registered
        self.defaultScope = defaultScope
        definition = registration.options
        let traits = registration.traits
        isolation = registration.isolation
        // Field by field from the box: a copy of the whole options would retain and release each reference.
        guard let set = persisted else {
            scope = registration.scope ?? defaultScope?.takeUnretainedValue()
            ttl = registration.ttl
            scopeOnParameters = traits.contains(.scopeOnParameters)
            promised = traits.contains(.promised)
            choose()
            return
        }
        // A `nil` scope set (`.scope(nil)`) is the container's default, as is none.
        scope = (set.value.hasScope ? set.value.scope : registration.scope) ?? defaultScope?.takeUnretainedValue()
        ttl = set.value.ttl ?? registration.ttl
        scopeOnParameters = set.value.scopeOnParameters ?? traits.contains(.scopeOnParameters)
        promised = set.value.promised || traits.contains(.promised)
        choose()
    }

    /// Read without a lock; `flags` are the container's.
    static func now(_ registration: FactoryRegistration, flags: Int) -> ResolvedOptions {
        let manager = registration.manager
        var persisted: (options: OptionsBox?, registration: RegistrationBoxBase?)
        if flags & ContainerManager.Flag.options.rawValue != 0, let slot = manager.findSlot(registration.key) {
            persisted = slot.takeUnretainedValue().loadPersisted()
        }
        let defaultScope = flags & ContainerManager.Flag.defaultScope.rawValue != 0 ? manager.publishedDefaultScope : nil
        return ResolvedOptions(
            registration, persisted: persisted.options, registered: persisted.registration, defaultScope: defaultScope)
    }

    var decorator: DecoratorBoxBase? {
        if let set = persisted?.value.decorator { return set }
        return definition?.value.decorator
    }

    var shutdown: ShutdownHandler? {
        if let set = persisted?.value.shutdown { return set }
        return definition?.value.shutdown
    }

    /// The closure: a matching context override (lowest rank; for one context type a persisted override beats the
    /// definition's, and among persisted ones the last added), else a registration, else the definition.
    private mutating func choose() {
        if definition?.value.contexts.isEmpty == false || persisted?.value.contexts.isEmpty == false,
            let best = bestContext()
        {
            closure = best.box
            box = best.persisted ? best.box : nil
            isolation = best.box.isolation
            code = UInt8(ascii: "O")
            return
        }
        guard let registered = registration else { return }
        closure = registered
        box = registered
        isolation = registered.isolation
        code = UInt8(ascii: "R")
    }

    private func bestContext() -> (box: RegistrationBoxBase, persisted: Bool)? {
        let own = definition?.value.contexts ?? []
        let set = persisted?.value.contexts ?? []
        let (current, honors) = FactoryContext.matching
        var best: (rank: Int, box: RegistrationBoxBase, persisted: Bool)?
        for override in own where override.type.matches(current, honorsLaunchOverridesInRelease: honors) {
            if set.contains(where: { $0.type == override.type }) { continue }
            if best == nil || override.type.rank < best!.rank { best = (override.type.rank, override.box, false) }
        }
        for override in set where override.type.matches(current, honorsLaunchOverridesInRelease: honors) {
            if best == nil || override.type.rank <= best!.rank { best = (override.type.rank, override.box, true) }
        }
        return best.map { ($0.box, $0.persisted) }
    }
}

/// A `register` or context-override closure, stored untyped and downcast by key to ``RegistrationBox``.
@usableFromInline
package class RegistrationBoxBase: @unchecked Sendable {
    // Sendable: `cells` is only touched under the owning manager's lock, `describesType` is
    // written under it before publication, and the rest is immutable.

    package final let isolation: ClosureIsolation
    /// Made during `autoRegister()` or by `once()`: describes the container type, not this
    /// instance, so a scope shared between containers shares what it builds, as in Factory.
    @exclusivity(unchecked) package final var describesType: Bool
    /// Instances a strategy keeps with this registration (FactoryScopes' singleton of a registration on one container
    /// instance); made lazily under the manager lock, emptied by resets and shutdown.
    @exclusivity(unchecked) package final var cells: CellSet?

    @usableFromInline
    package init(isolation: ClosureIsolation, describesType: Bool) {
        self.isolation = isolation
        self.describesType = describesType
    }
}

/// A registered closure of a factory whose ``FactoryModifying/Closure`` is `Closure`. Its key determines `Closure`: a
/// key names `P` (wrapped in ``AsyncKind`` for async kinds) and `T`, and each kind's closure type is a function of
/// them, so a ``Factory`` and a `Void` ``ParameterFactory`` share keys and closure type.
@usableFromInline
package final class RegistrationBox<Closure>: RegistrationBoxBase, @unchecked Sendable {
    // Sendable: see RegistrationBoxBase; the closure's isolation is checked before it runs.
    @usableFromInline package let closure: Closure

    @usableFromInline
    package init(_ closure: Closure, isolation: ClosureIsolation) {
        self.closure = closure
        super.init(isolation: isolation, describesType: false)
    }
}

/// A decorator stored untyped, called by the type-unaware engine with the instance's address.
@usableFromInline
package class DecoratorBoxBase: @unchecked Sendable {
    // Sendable: no state of its own.
    package init() {}

    package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        preconditionFailure("DecoratorBoxBase.decorate is overridden by DecoratorBox")
    }
}

@usableFromInline
package final class DecoratorBox<T>: DecoratorBoxBase, @unchecked Sendable {
    // Sendable: only an immutable `@Sendable` closure.
    package let decorator: @Sendable (T, Bool) -> Void

    @usableFromInline
    package init(_ decorator: @escaping @Sendable (T, Bool) -> Void) { self.decorator = decorator }

    /// `value` points at a `T`: the box is kept under its factory's key, and the engine calls it
    /// with that factory's instances only.
    override package func decorate(_ value: UnsafeRawPointer, isNew: Bool) {
        decorator(value.assumingMemoryBound(to: T.self).pointee, isNew)
    }
}
