// `autoRegister()` runs once per container, by the first factory value made from it; other
// threads wait for it through the wait graph.

extension ContainerManager {
    package enum AutoRegisterState {
        case pending
        case running(ResolutionContext, WaitPoint)
        case done
    }

    @_transparent @usableFromInline
    package func ensureAutoRegistered(_ container: any ManagedContainer) {
        if flags.value & Flag.ready.rawValue == 0 {
            runAutoRegister(container)
        }
    }

    /// Waits for another thread's `autoRegister()`. Factory values run it when made (they have the
    /// container then): one made before a reset resolves without re-running it; the next one made runs it.
    @_transparent @usableFromInline
    package func ensureAutoRegistered() {
        if flags.value & Flag.ready.rawValue == 0 {
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

    /// Through the wait graph, so two `autoRegister()`s waiting for each other are reported, not hung.
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

    private enum AutoRegisterStep {
        case done
        case wait(ResolutionContext, WaitPoint)
        case run(WaitPoint)
    }

    package var isAutoRegisteringHere: Bool {  // on the calling thread; `lock` held
        if case .running(let runner, _) = state.autoRegister { return runner === ResolutionContext.current }
        return false
    }
}
