/// Keeps one container's registrations, context overrides, scope caches and options.
///
/// Thread safety: every member may be used from any thread.
///
/// - Resolution reads without a lock: an atomic flags word tells whether
///   anything beyond a factory's definition can apply, and per-factory state
///   (persisted options, cached instances) is published through atomic
///   references that a cache hit reads inside a read section.
/// - Every change (register, reset, push, pop, an option) happens under one lock
///   per container, and publishes new immutable state; what it replaces is
///   released after the lock is released and lock-free readers are done with it.
/// - No lock is held while a factory closure, decorator, logger or `deinit` runs.
public final class ContainerManager: @unchecked Sendable {
    // Sendable because `state` is only touched with `lock` held, and `flags`,
    // `table`, `storageLink` and `decoratorLink` are atomic.

    @usableFromInline
    package enum Flags {
        /// `autoRegister()` has run (or the container does not auto-register).
        @usableFromInline static let ready = 1 << 0
        @usableFromInline static let trace = 1 << 1
        @usableFromInline static let checkCycles = 1 << 2
        @usableFromInline static let promiseTriggersError = 1 << 3
        @usableFromInline static let decorator = 1 << 4
        @usableFromInline static let defaultScope = 1 << 5
        /// Some factory of this container has persisted options (a registration, ...).
        @usableFromInline static let options = 1 << 6
        /// FactoryTesting strict mode is on.
        @usableFromInline static let strict = 1 << 7
        /// Something watches this container's resolutions for captive dependencies
        /// or draws its graph (see ``ContainerManager/logsCaptiveDependencies``).
        @usableFromInline static let observed = 1 << 8
        /// The container is per-request (``ContainerManager/isPerRequest``).
        @usableFromInline static let perRequest = 1 << 9
        /// ``shutdown(includingSingletons:timeout:)`` has started: every resolution fails.
        @usableFromInline static let shutDown = 1 << 10
        /// What sends a resolution down the general path; with none of these a
        /// factory's definition is all there is.
        @usableFromInline static let general =
            trace | decorator | defaultScope | options | strict | observed | perRequest | shutDown
    }

    package struct State {
        package var logger = LoggerBox { print($0) }
        package var decorator: ((Any) -> Void)?
        package var defaultScope: Scope?
        package var trace = false
        package var checkCycles = true
        #if DEBUG
        package var promiseTriggersError = true
        #else
        package var promiseTriggersError = false
        #endif
        package var dependencyChainTestMax = 8
        package var stack: [Snapshot] = []
        package var autoRegister = AutoRegisterState.pending
        /// How many slots have persisted options.
        package var optionsCount = 0
        /// FactoryTesting strict mode: told about every resolution that used a
        /// factory's definition (nothing registered, no context override).
        package var unmockedObserver: (@Sendable (FactoryKey) -> Void)?
        /// ``shutdown(includingSingletons:timeout:)`` has started; never undone.
        package var isShutDown = false
        /// See ``ContainerManager/isPerRequest``.
        package var isPerRequest = false
        /// See ``ContainerManager/logsCaptiveDependencies``.
        package var logsCaptives = false
        /// FactoryTesting strict mode: told about every captive dependency found.
        package var captiveObserver: (@Sendable (CaptiveDependency) -> Void)?
        /// How many graph validations of this container are running.
        package var validations = 0
        /// How many resolutions from this container wait for another one's build
        /// (see ``ContainerManager/buildWaiters``).
        package var buildWaiters = 0
    }

    /// Guards `state`, every slot's options and container cells, and registrations' singleton cells.
    package let lock = FactoryLock(owner: ContainerManager.self)
    @exclusivity(unchecked) package var state = State()
    @usableFromInline package let flags = AtomicWord()
    @usableFromInline package let table = SlotTable<Slot>()
    /// The global storage (singletons): the process's, or a test's.
    @usableFromInline let storageLink = OwnedAtomicReference<GlobalStorage>(GlobalStorage.process)
    /// A number no other manager of this process has, unlike its address, which a
    /// later manager may reuse: what a ``ScopeCache`` records as its owner.
    package let serial = ContainerManager.serials.add(1) + 1
    private static let serials = AtomicWord()
    /// `state.defaultScope` for lock-free readers: the scope's address, unretained
    /// (scopes are never freed; see ``Scope``), or 0. Written by ``publishFlags()``.
    @usableFromInline let defaultScopeWord = AtomicWord()
    /// `state.decorator` for lock-free readers.
    let decoratorLink = OwnedAtomicReference<ContainerDecorator>()

    /// Creates a manager with no registrations, using the process's singletons.
    public init() {
        LibraryCopies.check()
        lock.withLock { publishFlags() }
    }

    /// The global storage (singletons) this container uses, unretained: valid
    /// while the manager's lock is held, or inside a read section
    /// (``useGlobalStorage(_:)`` swaps it under the lock and releases the old one
    /// after waiting for readers).
    @inlinable
    package var globalStorageReference: Unmanaged<GlobalStorage> {
        storageLink.load()!
    }

    /// The global storage this container uses, retained; takes the manager's
    /// lock, so call it with the lock not held.
    package var globalStorage: GlobalStorage {
        lock.withLock { globalStorageReference.takeUnretainedValue() }
    }

    /// Makes this container keep its singletons in `storage` (FactoryTesting gives
    /// each test's container its own). Call before the container is used.
    ///
    /// Unlinks every factory's lock-free hit: a link may point into the previous
    /// storage, whose singletons are no longer this container's.
    package func useGlobalStorage(_ storage: GlobalStorage) {
        var garbage = Garbage()
        lock.withLock {
            garbage.add(storageLink.exchange(storage))
            for slot in table.all() { slot.unlinkHit(&garbage) }
        }
        garbage.release()
    }

    /// Recomputes ``flags`` from ``state``; `lock` held. The only writer of the
    /// flags, so no update is ever lost.
    package func publishFlags() {
        var value = 0
        if case .done = state.autoRegister { value |= Flags.ready }
        if state.trace { value |= Flags.trace }
        if state.checkCycles { value |= Flags.checkCycles }
        if state.promiseTriggersError { value |= Flags.promiseTriggersError }
        if state.decorator != nil { value |= Flags.decorator }
        if state.defaultScope != nil { value |= Flags.defaultScope }
        if state.optionsCount > 0 { value |= Flags.options }
        if state.unmockedObserver != nil { value |= Flags.strict }
        if state.logsCaptives || state.captiveObserver != nil || state.validations > 0 { value |= Flags.observed }
        if state.isPerRequest { value |= Flags.perRequest }
        if state.isShutDown { value |= Flags.shutDown }
        defaultScopeWord.store(state.defaultScope.map { Int(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0)
        flags.store(value)
    }

    /// Publishes `state.decorator` for lock-free readers; `lock` held. The
    /// replaced holder goes to `garbage`.
    package func publishDecorator(_ garbage: inout Garbage) {
        let holder = state.decorator.map(ContainerDecorator.init)
        garbage.add(decoratorLink.exchange(holder))
    }

    /// The default scope, lock-free.
    @inlinable
    package var publishedDefaultScope: Scope? {
        let bits = defaultScopeWord.value
        guard bits != 0 else { return nil }
        return Unmanaged<Scope>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// The container's decorator, lock-free.
    package var publishedDecorator: ((Any) -> Void)? {
        let section = ReadSection.begin()
        defer { section.end() }
        return decoratorLink.load()?.takeUnretainedValue().call
    }

    /// Runs `body` on the locked state and republishes the flags.
    package func mutate<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock {
            let result = body(&state)
            publishFlags()
            return result
        }
    }

    private func read<Result>(_ body: (State) -> Result) -> Result {
        lock.withLock { body(state) }
    }

    /// Sets one option and republishes the flags; the value it replaces is
    /// released after unlocking, as it may be a user's closure (or capture one).
    func replace<Value>(_ option: WritableKeyPath<State, Value>, with value: Value) {
        let replaced = mutate { state in
            let old = state[keyPath: option]
            state[keyPath: option] = value
            return old
        }
        _ = consume replaced
    }

    // MARK: Slots

    /// The slot of `key`, lock-free, or `nil` if the factory never cached or persisted anything here.
    @_alwaysEmitIntoClient @inline(__always)
    package func findSlot(_ key: FactoryKey) -> Unmanaged<Slot>? {
        table.find(key)
    }

    /// The slot of `key`, made if missing; `lock` held.
    package func slot(_ key: FactoryKey) -> Slot {
        table.findOrInsert(key) { Slot(key: key) }
    }

    /// Publishes new options for `slot`, keeping the count behind ``Flags/options``; `lock` held.
    package func setOptions(_ options: consuming FactoryOptions?, of slot: Slot, _ garbage: inout Garbage) {
        let had = slot.persistedOptions != nil
        let has = slot.setOptions(options, &garbage)
        if had != has {
            state.optionsCount += has ? 1 : -1
            publishFlags()
        }
    }

    // MARK: Options

    /// Trace every resolution cycle of this container through ``logger``: one line
    /// per resolution, `depth: Container.name<Type> = X:address Type`, where `X` is
    /// `F` (built by the definition), `R` (by a registration), `O` (by a context
    /// override) or `C` (from a cache). Lines are written when the outermost
    /// resolution ends. Off by default. Asynchronous factories write their lines
    /// the same way; what an async closure resolves is one level deeper, and a
    /// resolution that throws ends its line with `threw` and the error's type.
    public var trace: Bool {
        get { read { $0.trace } }
        set { mutate { $0.trace = newValue } }
    }

    /// Where trace lines go. Defaults to `print`. Called outside any lock, on the
    /// thread that resolved; it may be any thread, so a logger that collects
    /// lines from several threads must be thread-safe itself.
    public var logger: (String) -> Void {
        get { read { $0.logger.log } }
        set { replace(\.logger, with: LoggerBox(newValue)) }
    }

    /// Stop the program with the whole chain when a factory's resolution comes back
    /// to itself (same container instance, equal parameter). On by default, in
    /// every build configuration; turning it off saves a short scan per build and
    /// turns a cycle into a stack overflow.
    public var circularDependencyTesting: Bool {
        get { read { $0.checkCycles } }
        set { mutate { $0.checkCycles = newValue } }
    }

    /// Factory's name for the cycle check. Factory counted how often a type
    /// appeared in one chain; cycles are detected exactly here, so any positive
    /// value turns ``circularDependencyTesting`` on and 0 turns it off. The value
    /// is kept and returned as set (default 8).
    public var dependencyChainTestMax: Int {
        get { read { $0.dependencyChainTestMax } }
        set {
            mutate {
                $0.dependencyChainTestMax = newValue
                $0.checkCycles = newValue > 0
            }
        }
    }

    /// Stop the program when a `promised()` factory is resolved with nothing
    /// registered. On by default in DEBUG builds; has no effect in release builds,
    /// where such a resolution returns `nil`. Under FactoryTesting's traits and
    /// XCTest helpers the running test fails instead, and resolution returns `nil`.
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
    /// the factory's own decorator. Runs on the resolving thread, with no lock held.
    public var decorator: ((Any) -> Void)? {
        get { read { $0.decorator } }
        set {
            var garbage = Garbage()
            let replaced = mutate { state in
                let old = state.decorator
                state.decorator = newValue
                publishDecorator(&garbage)
                return old
            }
            garbage.release()
            _ = consume replaced
        }
    }

    // MARK: Reset

    /// Resets this container.
    ///
    /// - Parameter options: `.registration` removes every `register` (and runs
    ///   `autoRegister()` again on next use), `.context` every context override,
    ///   `.scope` empties this container's scope caches, `.all` does all three,
    ///   forgets modifiers applied at run time and runs `autoRegister()` again on
    ///   next use. Singletons are left alone unless `.singletons` is named.
    public func reset(options: FactoryResetOptions = .all) {
        var garbage = Garbage()
        lock.withLock {
            for slot in table.all() {
                resetOptions(options, of: slot, &garbage)
                if options.contains(.scope) { slot.removeAllInstances(&garbage) }
            }
            if options.contains(.all) || options.contains(.registration), case .done = state.autoRegister {
                state.autoRegister = .pending
            }
            publishFlags()
        }
        if options.contains(.singletons) { globalStorage.resetAll() }
        garbage.release()
    }
}

extension ContainerManager {
    /// Records that this container uses `cache` for a custom scope (``CacheStrategy``), so that its resets empty it.
    package func track(_ cache: ScopeCache, for key: FactoryKey) {
        lock.withLock { slot(key).customCaches.append(UsedScopeCache(cache: cache)) }
    }

    /// Drops every instance this container cached under `scope`, atomically with
    /// every other change; the instances are released after unlocking.
    package func removeAll(scope: Scope) {
        var garbage = Garbage()
        let scopeID = ObjectIdentifier(scope)
        lock.withLock {
            for slot in table.all() { slot.removeInstances(scopeID: scopeID, &garbage) }
        }
        garbage.release()
    }
}

/// A container's decorator, published for lock-free readers.
final class ContainerDecorator: @unchecked Sendable {
    // Sendable because it is immutable; the closure is called on resolving
    // threads, as ``ContainerManager/decorator`` documents.
    let call: (Any) -> Void

    init(_ call: @escaping (Any) -> Void) {
        self.call = call
    }
}
