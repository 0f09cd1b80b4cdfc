import ArgumentParser

/// What the report looks like.
public enum ReportFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Aligned columns for people.
    case plain
    /// One JSON object for scripts.
    case json
}
