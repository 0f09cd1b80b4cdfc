#if SwiftConcurrency
/// The chain of asynchronous resolutions a task is inside, innermost first: it
/// follows the task across suspension points (and into the tasks that run
/// builds), so a cycle through `await` is found like a synchronous one.
package final class AsyncChain: Sendable {
    package let key: FactoryKey
    /// The container instance, so the same factory of another instance is no cycle.
    package let containerID: ObjectIdentifier
    /// The parameter, when it is `Hashable` (other parameters never compare equal).
    package let parameter: (any AsyncParameter)?
    /// Whether the factory takes no parameter (then any re-entry is a cycle).
    package let parameterless: Bool
    package let parent: AsyncChain?
    /// What the captive-dependency check knows of this resolution, when it is
    /// watched: its container is, or an outer resolution is.
    package let watch: WatchedResolution?
    /// The build whose closure this resolution is, if it is one.
    package let build: AsyncWaiter?
    /// Where this resolution sits in its cycle's trace, when a container of the
    /// cycle traces (``ContainerManager/trace``).
    package let trace: AsyncTracePosition?

    package init(
        key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool,
        parent: AsyncChain?, watch: WatchedResolution? = nil, build: AsyncWaiter? = nil, trace: AsyncTracePosition? = nil
    ) {
        self.key = key
        self.containerID = containerID
        self.parameter = parameter
        self.parameterless = parameterless
        self.parent = parent
        self.watch = watch
        self.build = build
        self.trace = trace
    }

    /// The innermost build this resolution runs inside, if any.
    package var enclosingBuild: AsyncWaiter? {
        var node: AsyncChain? = self
        while let current = node {
            if let build = current.build { return build }
            node = current.parent
        }
        return nil
    }

    /// The chain of the running task.
    @TaskLocal package static var current: AsyncChain?

    /// Whether the chain already resolves this factory of this container with an equal parameter.
    package func contains(
        _ key: FactoryKey, containerID: ObjectIdentifier, parameter: (any AsyncParameter)?, parameterless: Bool
    ) -> Bool {
        let parameter = parameter?.hashable
        var node: AsyncChain? = self
        while let current = node {
            if current.containerID == containerID && current.key == key
                && (parameterless || (parameter != nil && current.parameter?.hashable == parameter))
            {
                return true
            }
            node = current.parent
        }
        return false
    }

    /// Whether this resolution runs inside `build`: the build's own resolution is
    /// one of its outer resolutions.
    package func isInside(_ build: AsyncBuild<some Sendable>) -> Bool {
        let started = build.chain
        var node = parent
        while let current = node {
            if current === started { return true }
            node = current.parent
        }
        return false
    }

    /// The keys from the outermost resolution to this one.
    package var keys: [FactoryKey] {
        var keys: [FactoryKey] = []
        var node: AsyncChain? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A parameter kept in an ``AsyncChain`` or handed to a build's task: `Sendable`
/// because the parameter type is, and compared through `AnyHashable`.
package protocol AsyncParameter: Sendable {
    /// The parameter as `AnyHashable`, or `nil` when its type is not `Hashable`
    /// or it is not equal to itself (NaN), so it can never be found again.
    var hashable: AnyHashable? { get }
}

package struct AsyncParameterValue<P: Sendable>: AsyncParameter {
    package let value: P
    package init(_ value: P) { self.value = value }
    /// As a synchronous factory's parameter becomes a cache key (``GeneralPath/hashable(_:)``).
    package var hashable: AnyHashable? {
        GeneralPath.hashable(value)
    }
}
#endif
