#if SwiftConcurrency
/// The async resolutions a task is inside, innermost first. It follows the task across
/// suspension points and into build tasks, so a cycle through `await` is found like a sync one.
package final class AsyncChain: Sendable {
    package let key: FactoryKey
    package let containerID: ObjectIdentifier  // the same factory of another instance is no cycle
    package let parameter: (any AsyncParameter)?  // only when `Hashable`: others never compare equal
    package let parameterless: Bool  // then any re-entry is a cycle
    package let parent: AsyncChain?
    package let watch: WatchedResolution?  // set when its container or an outer resolution is watched
    package let build: AsyncWaiter?  // the build whose closure this resolution is, if it is one
    package let trace: AsyncTracePosition?  // set when a container of the cycle traces

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

    package var enclosingBuild: AsyncWaiter? {
        var node: AsyncChain? = self
        while let current = node {
            if let build = current.build { return build }
            node = current.parent
        }
        return nil
    }

    @TaskLocal package static var current: AsyncChain?

    /// Same factory, same container, equal parameter.
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

    /// The build's own resolution is one of this one's outer resolutions.
    package func isInside(_ build: AsyncBuild<some Sendable>) -> Bool {
        let started = build.chain
        var node = parent
        while let current = node {
            if current === started { return true }
            node = current.parent
        }
        return false
    }

    package var keys: [FactoryKey] {  // outermost first
        var keys: [FactoryKey] = []
        var node: AsyncChain? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A parameter kept in an ``AsyncChain`` or handed to a build's task, compared through `AnyHashable`.
package protocol AsyncParameter: Sendable {
    /// `nil` when not `Hashable` or not equal to itself (NaN): it could never be found again.
    var hashable: AnyHashable? { get }
}

package struct AsyncParameterValue<P: Sendable>: AsyncParameter {
    package let value: P
    package init(_ value: P) { self.value = value }
    package var hashable: AnyHashable? { GeneralPath.hashable(value) }
}
#endif
