/// Keeps one container's registrations, context overrides, scope caches and options.
///
/// Thread safety: every member may be used from any thread.
/// - Resolution reads without a lock: an atomic flags word tells whether anything beyond a factory's
///   definition can apply, and per-factory state is published through atomic references that a cache
///   hit reads inside a read section.
/// - Every change (register, reset, push, pop, an option) happens under the container's lock and
///   publishes new immutable state; what it replaces is released once unlocked and readers are done.
/// - No lock is held while a factory closure, decorator, logger or `deinit` runs.
public final class ContainerManager: @unchecked Sendable {
    // Sendable: `state` is only touched under `lock`; `flags`, `table`, `storageLink`,
    // `defaultScopeWord` and `decoratorLink` are atomic.

    /// The bits of ``flags``. Cases, not stored statics: a stored static is a lazy global, and one `rawValue` reads
    /// them all, so an unoptimized build makes one call for any of them, not one per flag.
    @usableFromInline
    package enum Flag: Int {
        /// `autoRegister()` has run (or the container does not auto-register).
        case ready = 0x1
        case trace = 0x2
        case checkCycles = 0x4
        case promiseTriggersError = 0x8
        case decorator = 0x10
        case defaultScope = 0x20
        /// Some factory here has persisted options (a registration, ...).
        case options = 0x40
        case strict = 0x80
        /// Captive-dependency watching or graph drawing (``ContainerManager/logsCaptiveDependencies``).
        case observed = 0x100
        case perRequest = 0x200
        /// Shutdown has started: every resolution fails.
        case shutDown = 0x400
        /// A `FactoryProfile` recording names this container: every build is recorded.
        case profile = 0x800

        /// Any of these sends a resolution down the general path; without them the definition is all there is:
        /// trace, decorator, defaultScope, options, strict, observed, perRequest, shutDown, profile.
        @inlinable
        package static var general: Int { 0xFF2 }
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
        package var optionsCount = 0  // slots with persisted options
        /// Strict mode: told of every resolution that used a definition (nothing registered or overridden).
        package var unmockedObserver: (@Sendable (FactoryKey) -> Void)?
        package var isShutDown = false  // never undone
        package var isPerRequest = false
        package var logsCaptives = false
        package var captiveObserver: (@Sendable (CaptiveDependency) -> Void)?
        package var validations = 0  // running graph validations
        package var buildWaiters = 0
        package var graphScopeEnabled = false
        package var profiled = 0  // running recordings that name this container
    }

    /// Guards `state`, every slot's options and container cells, and registrations' singleton cells.
    package let lock = FactoryLock(owner: ContainerManager.self)
    @exclusivity(unchecked) package var state = State()
    @usableFromInline package let flags = AtomicWord()
    @usableFromInline package let table = SlotTable()
    /// The singletons' storage: the process's, or a test's.
    @usableFromInline let storageLink = OwnedAtomicReference<GlobalStorage>(GlobalStorage.process)
    /// Unique in the process, unlike an address a later manager may reuse: a custom cache's owner.
    package let serial = ContainerManager.serials.add(1) + 1
    private static let serials = AtomicWord()
    /// `state.defaultScope`'s address for lock-free readers, unretained (scopes are never freed), or 0.
    @usableFromInline let defaultScopeWord = AtomicWord()
    let decoratorLink = OwnedAtomicReference<ContainerDecorator>()

    /// Creates a manager with no registrations, using the process's singletons.
    public init() {
        FactoryError.reportLibraryCopies()
        lock.withLock { publishFlags() }
    }

    /// Unretained: valid under the manager's lock or inside a read section (``useGlobalStorage(_:)``
    /// swaps it under the lock and releases the old one after waiting for readers).
    @inlinable
    package var globalStorageReference: Unmanaged<GlobalStorage> {
        storageLink.load()!
    }

    /// Retained; takes the manager's lock.
    package var globalStorage: GlobalStorage { lock.withLock { globalStorageReference.takeUnretainedValue() } }

    /// Call before the container is used (FactoryTesting gives each test's container its own). Unlinks
    /// every hit, as a link may point into the previous storage: the next resolution decides again.
    package func useGlobalStorage(_ storage: GlobalStorage) {
        var garbage = Garbage()
        lock.withLock {
            garbage.add(storageLink.exchange(storage))
            for slot in table.all() { garbage.add(slot.hitLink.exchange(nil)) }
        }
        garbage.release()
    }

    package func publishFlags() {  // `lock` held; the flags' only writer, so no update is lost
        var value = 0
        if case .done = state.autoRegister { value |= Flag.ready.rawValue }
        if state.trace { value |= Flag.trace.rawValue }
        if state.checkCycles { value |= Flag.checkCycles.rawValue }
        if state.promiseTriggersError { value |= Flag.promiseTriggersError.rawValue }
        if state.decorator != nil { value |= Flag.decorator.rawValue }
        if state.defaultScope != nil { value |= Flag.defaultScope.rawValue }
        if state.optionsCount > 0 { value |= Flag.options.rawValue }
        if state.unmockedObserver != nil { value |= Flag.strict.rawValue }
        if state.logsCaptives || state.captiveObserver != nil || state.validations > 0 { value |= Flag.observed.rawValue }
        if state.isPerRequest { value |= Flag.perRequest.rawValue }
        if state.isShutDown { value |= Flag.shutDown.rawValue }
        if state.profiled > 0 { value |= Flag.profile.rawValue }
        defaultScopeWord.store(state.defaultScope.map { Int(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0)
        flags.store(value)
    }

    package func publishDecorator(_ garbage: inout Garbage) {  // `lock` held
        let holder = state.decorator.map(ContainerDecorator.init)
        garbage.add(decoratorLink.exchange(holder))
    }

    @inlinable
    package var publishedDefaultScope: Unmanaged<Scope>? {
        let bits = defaultScopeWord.value
        guard bits != 0 else { return nil }
        return Unmanaged<Scope>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    package var publishedDecorator: ((Any) -> Void)? {
        let section = ReadSection.begin()
        defer { section.end() }
        return decoratorLink.load()?.takeUnretainedValue().call
    }

    package func mutate<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock {
            let result = body(&state)
            publishFlags()
            return result
        }
    }

    private func read<Result>(_ body: (State) -> Result) -> Result { lock.withLock { body(state) } }

    /// The replaced value, maybe a user's closure, is released after unlocking.
    func replace<Value>(_ option: WritableKeyPath<State, Value>, with value: Value) {
        let replaced = mutate { state in
            let old = state[keyPath: option]
            state[keyPath: option] = value
            return old
        }
        _ = consume replaced
    }

    /// Lock-free; `nil` if the factory never cached or persisted anything here.
    @_alwaysEmitIntoClient @inline(__always)
    package func findSlot(_ key: FactoryKey) -> Unmanaged<Slot>? {
        table.find(key)
    }

    /// Keeps the count behind ``Flag/options``; `lock` held.
    package func setOptions(_ options: consuming FactoryOptions?, of slot: Slot, _ garbage: inout Garbage) {
        let had = slot.isPersisted
        slot.setOptions(consume options, &garbage)
        countPersisted(slot, had: had, &garbage)
    }

    /// Keeps the count behind ``Flag/options``; `lock` held.
    package func setRegistration(_ box: RegistrationBoxBase?, of slot: Slot, _ garbage: inout Garbage) {
        let had = slot.isPersisted
        garbage.add(slot.publishedRegistration.exchange(box))
        countPersisted(slot, had: had, &garbage)
    }

    /// Also unlinks the slot's hit, which the next decision links again for the closure then chosen.
    private func countPersisted(_ slot: Slot, had: Bool, _ garbage: inout Garbage) {
        slot.unlinkHit(&garbage)
        let has = slot.isPersisted
        guard had != has else { return }
        state.optionsCount += has ? 1 : -1
        publishFlags()
    }

    /// Trace every resolution cycle of this container through ``logger`` (off by default): one line per
    /// resolution, `depth: Container.name<Type> = X:address Type`, where `X` is `F` (built by the
    /// definition), `R` (by a registration), `O` (by a context override) or `C` (from a cache), written
    /// when the outermost resolution ends. Async factories write the same lines; what an async closure
    /// resolves is one level deeper, and a resolution that throws ends with `threw` and the error's type.
    public var trace: Bool {
        get { read { $0.trace } }
        set { mutate { $0.trace = newValue } }
    }

    /// Where trace lines go; `print` by default. Called with no lock held on the resolving thread, which
    /// may be any thread, so a logger collecting lines must be thread-safe itself.
    public var logger: (String) -> Void {
        get { read { $0.logger.log } }
        set { replace(\.logger, with: LoggerBox(newValue)) }
    }

    /// Stop the program with the whole chain when a resolution comes back to itself (same container
    /// instance, equal parameter). On by default in every build configuration; turning it off saves a
    /// short scan per build and turns a cycle into a stack overflow.
    public var circularDependencyTesting: Bool {
        get { read { $0.checkCycles } }
        set { mutate { $0.checkCycles = newValue } }
    }

    /// Factory's name for the cycle check, which counted a type's appearances in one chain. Cycles are
    /// detected exactly here, so any positive value turns ``circularDependencyTesting`` on and 0 off;
    /// the value is kept and returned as set (default 8).
    public var dependencyChainTestMax: Int {
        get { read { $0.dependencyChainTestMax } }
        set {
            mutate {
                $0.dependencyChainTestMax = newValue
                $0.checkCycles = newValue > 0
            }
        }
    }

    /// Stop the program when a `promised()` factory is resolved with nothing registered. On by default in
    /// DEBUG builds; no effect in release builds, where it returns `nil`. Under FactoryTesting's traits
    /// and XCTest helpers the running test fails instead, and resolution returns `nil`.
    public var promiseTriggersError: Bool {
        get { read { $0.promiseTriggersError } }
        set { mutate { $0.promiseTriggersError = newValue } }
    }

    /// The scope of factories that do not name one; `nil` (the default) means unique. Changing it
    /// does not clear instances already cached.
    public var defaultScope: Scope? {
        get { read { $0.defaultScope } }
        set {
            mutate {
                $0.defaultScope = newValue
                if newValue?.keeping == .cycle { $0.graphScopeEnabled = true }
            }
        }
    }

    /// Factory 3.3's switch for the graph scope, kept so that code written for it compiles. Here it changes nothing:
    /// `.graph` shares its instance within a resolution cycle whether it is on or off. Off by default; setting
    /// ``defaultScope`` to `.graph` turns it on, as in Factory.
    public var graphScopeEnabled: Bool {
        get { read { $0.graphScopeEnabled } }
        set { mutate { $0.graphScopeEnabled = newValue } }
    }

    /// Called with every instance this container resolves, new or cached, after the factory's own
    /// decorator, on the resolving thread with no lock held.
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

    /// Resets this container.
    ///
    /// - Parameter options: `.registration` removes every `register` (and runs `autoRegister()` again
    ///   on next use), `.context` every context override, `.scope` empties this container's scope
    ///   caches, `.all` does all three, forgets modifiers applied at run time and runs `autoRegister()`
    ///   again on next use. Singletons are left alone unless `.singletons` is named.
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
    /// So that resets, `pop()` and shutdown empty a custom cache's cells too; held weakly, as the strategy owns them.
    package func track(_ cells: CellSet, for key: FactoryKey) {
        lock.withLock { table.findOrInsert(key).trackedCells.append(TrackedCells(cells: cells)) }
    }

    /// Atomic with every other change; the instances are released after unlocking.
    package func removeAll(scope: Scope) {
        var garbage = Garbage()
        let scopeID = ObjectIdentifier(scope)
        lock.withLock {
            for slot in table.all() { slot.removeInstances(scopeID: scopeID, &garbage) }
        }
        garbage.release()
    }
}

final class ContainerDecorator: @unchecked Sendable {
    // Sendable: immutable; the closure runs on resolving threads, as `decorator` documents.
    let call: (Any) -> Void

    init(_ call: @escaping (Any) -> Void) { self.call = call }
}

extension ContainerManager {
    package var loggerBox: LoggerBox { lock.withLock { state.logger } }

    /// Strict mode; the observer runs outside the lock, on the resolving thread.
    package func reportUnmocked(_ key: FactoryKey) {
        let observer = lock.withLock { state.unmockedObserver }
        observer?(key)
    }
}
