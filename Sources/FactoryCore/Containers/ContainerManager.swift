/// Keeps one container's registrations, context overrides, scope caches and options.
///
/// Thread safety: every member may be used from any thread. Registrations and
/// options live in one `State` behind one lock; the flags the resolution path
/// needs are mirrored into an atomic word so that a resolution of a factory with
/// nothing registered reads no lock at all. No lock is held while a factory
/// closure, decorator or logger runs.
public final class ContainerManager: @unchecked Sendable {
    // Sendable because `state` is only touched under `lock`; `flags` is atomic.

    @usableFromInline
    package enum Flags {
        @usableFromInline static let hasEntries = 1 << 0
        @usableFromInline static let trace = 1 << 1
        @usableFromInline static let checkCycles = 1 << 2
        @usableFromInline static let promiseTriggersError = 1 << 3
        @usableFromInline static let hasDecorator = 1 << 4
        @usableFromInline static let hasDefaultScope = 1 << 5
        @usableFromInline static let autoRegistered = 1 << 6
        /// FactoryTesting strict mode: set while `State.unmockedObserver` is; part of
        /// `directMask` so that strict resolutions take the general path.
        @usableFromInline static let strictMocks = 1 << 7
        /// The flags under which a resolution can skip the manager's state entirely:
        /// auto-registration done, nothing registered, no default scope, no strict mode.
        @usableFromInline static let directMask = hasEntries | hasDefaultScope | autoRegistered | strictMocks
    }

    /// What a ``FactoryRegistration`` persists beyond the Factory value it was made from.
    package struct Entry {
        /// A `RegistrationBox<P, T>` from `register`.
        package var registration: AnyObject?
        /// A scope set by a modifier chained after `register`, `once()` or a context.
        package var scope: Scope?
        /// A `DecoratorBox<T>` set by a modifier chained after `register`.
        package var decorator: AnyObject?
        /// `RegistrationBox<P, T>` per context, in the order they were added.
        package var contexts: [(type: FactoryContextType, box: AnyObject)] = []

        package var isEmpty: Bool {
            registration == nil && scope == nil && decorator == nil && contexts.isEmpty
        }
    }

    package struct State {
        package var entries: [FactoryKey: Entry] = [:]
        package var decorator: (@Sendable (Any) -> Void)?
        package var logger: @Sendable (String) -> Void = { print($0) }
        package var defaultScope: Scope?
        package var trace = false
        package var checkCycles = true
        #if DEBUG
        package var promiseTriggersError = true
        #else
        package var promiseTriggersError = false
        #endif
        package var stack: [Snapshot] = []
        /// FactoryTesting strict mode: told about every resolution that used a
        /// factory's definition (nothing registered, no context override).
        package var unmockedObserver: (@Sendable (FactoryKey) -> Void)?
    }

    package struct Snapshot {
        package var entries: [FactoryKey: Entry]
        package var cache: [ScopeStorage.SlotKey: ScopeStorage.Slot]
    }

    package let lock = FactoryLock()
    // Only touched under `lock`, so the runtime's exclusivity tracking would only add cost.
    @exclusivity(unchecked) package var state = State()
    @usableFromInline package let flags: AtomicFlags
    private let autoRegisterLock = FactoryLock()

    /// Cached, shared, time-to-live and custom scopes of this container.
    @usableFromInline package let storage = ScopeStorage()
    /// Where this container's singletons live: the process's, or a test's own.
    @usableFromInline package let singletons: ScopeStorage

    /// Creates a manager with no registrations. Containers create their own.
    public init() {
        singletons = ScopeStorage.currentSingletons
        flags = AtomicFlags(0)
        lock.withLock { updateFlags() }
    }

    /// Recomputes ``flags`` from ``state``; call with `lock` held.
    package func updateFlags() {
        var value = flags.value & Flags.autoRegistered
        if !state.entries.isEmpty { value |= Flags.hasEntries }
        if state.trace { value |= Flags.trace }
        if state.checkCycles { value |= Flags.checkCycles }
        if state.promiseTriggersError { value |= Flags.promiseTriggersError }
        if state.decorator != nil { value |= Flags.hasDecorator }
        if state.defaultScope != nil { value |= Flags.hasDefaultScope }
        if state.unmockedObserver != nil { value |= Flags.strictMocks }
        flags.store(value)
    }

    /// Runs `body` on the locked state and republishes the flags.
    package func mutate<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock {
            let result = body(&state)
            updateFlags()
            return result
        }
    }

    private func read<Result>(_ body: (State) -> Result) -> Result {
        lock.withLock { body(state) }
    }

    /// Trace every resolution cycle of this container through ``logger``: one line
    /// per resolution, indented by depth, naming container, factory and type, and
    /// whether the instance was new (`N:`) or cached (`C:`). Off by default.
    public var trace: Bool {
        get { read { $0.trace } }
        set { mutate { $0.trace = newValue } }
    }

    /// Where trace lines go. Defaults to `print`. Called outside any lock, on the
    /// thread that resolved.
    public var logger: @Sendable (String) -> Void {
        get { read { $0.logger } }
        set { mutate { $0.logger = newValue } }
    }

    /// Stop the program with the whole chain when a factory's resolution comes back
    /// to itself. On by default, in every build configuration; turning it off saves
    /// a short scan per resolution and turns a cycle into a stack overflow.
    public var circularDependencyTesting: Bool {
        get { read { $0.checkCycles } }
        set { mutate { $0.checkCycles = newValue } }
    }

    /// Stop the program when a `promised()` factory is resolved with nothing
    /// registered. On by default in DEBUG builds; has no effect in release builds,
    /// where such a resolution returns `nil`.
    public var promiseTriggersError: Bool {
        get { read { $0.promiseTriggersError } }
        set { mutate { $0.promiseTriggersError = newValue } }
    }

    /// The scope of factories that do not name one. `nil` (the default) means unique.
    ///
    /// Changing it does not clear instances already cached.
    public var defaultScope: Scope? {
        get { read { $0.defaultScope } }
        set { mutate { $0.defaultScope = newValue } }
    }

    /// Called with every instance this container resolves, new or cached, after
    /// the factory's own decorators.
    public var decorator: (@Sendable (Any) -> Void)? {
        get { read { $0.decorator } }
        set { mutate { $0.decorator = newValue } }
    }

    /// Saves registrations, context overrides, persisted options and this
    /// container's scope caches, to be restored by ``pop()``.
    ///
    /// Pushes nest. Singletons are process-wide and are not part of the snapshot.
    public func push() {
        let cache = storage.snapshot()
        mutate { $0.stack.append(Snapshot(entries: $0.entries, cache: cache)) }
    }

    /// Restores the state saved by the matching ``push()``. Does nothing when
    /// nothing was pushed.
    public func pop() {
        let snapshot: Snapshot? = mutate { state in
            guard let snapshot = state.stack.popLast() else { return nil }
            state.entries = snapshot.entries
            return snapshot
        }
        if let snapshot { storage.restore(snapshot.cache) }
    }

    /// Resets this container.
    ///
    /// - Parameter options: `.registration` removes every `register`, `.context`
    ///   every context override, `.scope` empties this container's scope caches,
    ///   `.all` does all three and also forgets persisted modifiers. Singletons are
    ///   left alone unless `.singletons` is named explicitly.
    public func reset(options: FactoryResetOptions = .all) {
        mutate { state in
            if options.contains(.all) {
                state.entries.removeAll()
                return
            }
            for key in Array(state.entries.keys) {
                if options.contains(.registration) { state.entries[key]?.registration = nil }
                if options.contains(.context) { state.entries[key]?.contexts.removeAll() }
                if state.entries[key]?.isEmpty == true { state.entries[key] = nil }
            }
        }
        if options.contains(.scope) { storage.removeAll() }
        if options.contains(.singletons) { singletons.removeAll() }
    }

    /// Runs the container's `autoRegister()` once, before its first use.
    @inline(__always)
    package func ensureAutoRegistered(_ container: any ManagedContainer) {
        if flags.value & Flags.autoRegistered == 0 {
            runAutoRegister(container)
        }
    }

    private func runAutoRegister(_ container: any ManagedContainer) {
        let context = ResolutionContext.current
        let id = ObjectIdentifier(self)
        // Registrations made by autoRegister() itself come back here on this thread.
        if context.autoRegistering.contains(id) { return }
        autoRegisterLock.lock()
        defer { autoRegisterLock.unlock() }
        guard flags.value & Flags.autoRegistered == 0 else { return }
        if let autoRegistering = container as? any AutoRegistering {
            context.autoRegistering.append(id)
            autoRegistering.autoRegister()
            context.autoRegistering.removeAll { $0 == id }
        }
        flags.set(Flags.autoRegistered, true)
    }
}
