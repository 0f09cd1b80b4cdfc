import FactoryCore

/// The container every service of `textstats` comes from.
///
/// A custom container keeps the tool's registrations apart from
/// `Container.shared` and from any library the tool links.
public final class ToolContainer: SharedContainer {
    /// The tool's one container.
    public static let shared = ToolContainer()

    /// Registrations, overrides and options of this container.
    public let manager = ContainerManager()
}
