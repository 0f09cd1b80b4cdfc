// `autoRegister()`: run once per container, before its first use, by the
// first factory value made from it; other threads wait for it through the wait graph.

extension ContainerManager {
    /// Where `autoRegister()` is.
    package enum AutoRegisterState {
        case pending
        case running(ResolutionContext, WaitPoint)
        case done
    }

    /// Runs the container's `autoRegister()` once, before its first use.
    @inlinable
    package func ensureAutoRegistered(_ container: any ManagedContainer) {
        if flags.value & Flags.ready == 0 {
            runAutoRegister(container)
        }
    }

    /// Waits for an `autoRegister()` that another thread is running. A factory
    /// value runs `autoRegister()` when it is made (it has the container then);
    /// one made before a reset and resolved after it resolves without running it
    /// again — the next factory value made from the container runs it.
    @inlinable
    package func ensureAutoRegistered() {
        if flags.value & Flags.ready == 0 {
            waitForAutoRegister()
        }
    }

    @usableFromInline @inline(never)
    func waitForAutoRegister() {
        let context = ResolutionContext.current
        let running = lock.withLock { () -> (ResolutionContext, WaitPoint)? in
            guard case .running(let runner, let waitPoint) = state.autoRegister, runner !== context else { return nil }
            return (runner, waitPoint)
        }
        guard let (runner, waitPoint) = running else { return }
        waitFor(runner, at: waitPoint, of: ContainerManager.self)
    }

    /// Waits for `runner`'s `autoRegister()`, through the wait graph so that two
    /// containers whose `autoRegister()`s wait for each other on two threads are
    /// reported instead of hanging.
    private func waitFor(_ runner: ResolutionContext, at point: WaitPoint, of containerType: any AnyObject.Type) {
        let context = ResolutionContext.current
        let key = FactoryKey(
            name: "autoRegister", valueType: Void.self, parameterType: Void.self, containerType: containerType)
        WaitGraph.wait(context, for: runner, key: key, at: point)
    }

    @usableFromInline
    func runAutoRegister(_ container: any ManagedContainer) {
        let context = ResolutionContext.current
        while true {
            let step = lock.withLock { () -> AutoRegisterStep in
                switch state.autoRegister {
                case .done:
                    return .done
                case .running(let runner, let waitPoint):
                    // Registrations made by autoRegister() itself come back here on its thread.
                    return runner === context ? .done : .wait(runner, waitPoint)
                case .pending:
                    let waitPoint = WaitPoint()
                    state.autoRegister = .running(context, waitPoint)
                    return .run(waitPoint)
                }
            }
            switch step {
            case .done:
                return
            case .wait(let runner, let waitPoint):
                waitFor(runner, at: waitPoint, of: type(of: container))
            case .run(let waitPoint):
                if let autoRegistering = container as? any AutoRegistering {
                    autoRegistering.autoRegister()
                }
                lock.withLock {
                    state.autoRegister = .done
                    publishFlags()
                }
                waitPoint.open()
                return
            }
        }
    }

    /// What ``runAutoRegister(_:)`` does next, decided under the lock.
    private enum AutoRegisterStep {
        case done
        case wait(ResolutionContext, WaitPoint)
        case run(WaitPoint)
    }

    /// Whether `autoRegister()` is running on the calling thread; `lock` held.
    package var isAutoRegisteringHere: Bool {
        if case .running(let runner, _) = state.autoRegister { return runner === ResolutionContext.current }
        return false
    }
}
