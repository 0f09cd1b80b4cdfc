/// Everything a test can change in some containers, saved so that it can be put back.
///
/// A snapshot holds each container's registrations, context overrides, persisted
/// modifiers, options (trace, logger, decorator, default scope, strict mode, ...),
/// its scope caches and its singletons. ``restore()`` puts all of it back, whatever
/// the test did in between, including pushes it never popped.
///
/// In XCTest, take one in `setUp` and restore it in `tearDown`:
///
/// ```swift
/// final class CheckoutTests: XCTestCase {
///     private var snapshot: ContainerSnapshot!
///
///     override func setUp() {
///         super.setUp()
///         snapshot = ContainerSnapshot(of: Container.shared)
///     }
///
///     override func tearDown() {
///         snapshot.restore()
///         super.tearDown()
///     }
///
///     func testCheckoutUsesTheMock() {
///         Container.shared.payments.register { MockPayments() }
///         XCTAssertTrue(Container.shared.checkout().pay())
///     }
/// }
/// ```
///
/// ``ContainerTestCase`` does the same for a whole class, and `withContainer(_:)`
/// for one block.
///
/// Singletons: a container created outside a FactoryTesting scope keeps its
/// singletons in process-wide storage, shared with every other such container.
/// Restoring puts that whole storage back as it was, which is right for XCTest,
/// where tests of one process run one at a time. Tests that run in parallel
/// (Swift Testing) should isolate with the `.container` trait instead.
///
/// Thread safety: take and restore a snapshot while nothing else uses the
/// containers; a resolution running during ``restore()`` may see a mix of the two states.
public struct ContainerSnapshot {
    /// How ``restore()`` treats singleton storage.
    enum SingletonPolicy {
        /// Put the whole storage back as it was.
        case restoreAll
        /// Leave other containers' singletons alone; drop those of the snapshotted
        /// container types that were built or replaced since, so they are built
        /// again from their real definitions.
        case dropChangedOwnKeys
    }

    private struct SavedContainer {
        let manager: ContainerManager
        let state: ContainerManager.SavedState
    }

    private struct SavedSingletons {
        let storage: GlobalStorage
        let saved: GlobalStorage.Saved
    }

    private let containers: [SavedContainer]
    private let singletons: [SavedSingletons]
    private let containerTypes: Set<ObjectIdentifier>
    private let policy: SingletonPolicy

    /// Saves the state of `containers`.
    ///
    /// - Parameter containers: The containers to save, e.g. `Container.shared`.
    public init(of containers: any ManagedContainer...) {
        self.init(of: containers, singletons: .restoreAll)
    }

    /// Saves the state of `containers`.
    ///
    /// - Parameter containers: The containers to save.
    public init(of containers: [any ManagedContainer]) {
        self.init(of: containers, singletons: .restoreAll)
    }

    init(of containers: [any ManagedContainer], singletons policy: SingletonPolicy) {
        var saved: [SavedContainer] = []
        var singletons: [SavedSingletons] = []
        for container in containers {
            let manager = container.manager
            // Run autoRegister() now, so what it registers is part of the snapshot
            // rather than something a restore would have to make again.
            manager.ensureAutoRegistered(container)
            saved.append(SavedContainer(manager: manager, state: manager.save()))
            let storage = manager.globalStorage
            if !singletons.contains(where: { $0.storage === storage }) {
                singletons.append(SavedSingletons(storage: storage, saved: storage.save()))
            }
        }
        self.containers = saved
        self.singletons = singletons
        self.containerTypes = Set(containers.map { ObjectIdentifier(type(of: $0)) })
        self.policy = policy
    }

    /// Puts back everything saved: registrations, options, scope caches and singletons.
    ///
    /// A snapshot can be restored more than once; each restore goes back to the
    /// moment it was taken.
    public func restore() {
        for saved in containers.reversed() {
            saved.manager.restore(saved.state)
        }
        for saved in singletons {
            switch policy {
            case .restoreAll:
                saved.storage.restore(saved.saved)
            case .dropChangedOwnKeys:
                saved.storage.dropChanged(since: saved.saved, containerTypes: containerTypes)
            }
        }
    }
}
