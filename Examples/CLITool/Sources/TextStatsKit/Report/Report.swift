/// Everything `textstats` prints.
public struct Report: Sendable {
    /// One entry per input, in command-line order.
    public var files: [FileStats]
    /// How many frequent words to list.
    public var top: Int
    /// How long reading and counting took.
    public var elapsed: Duration

    /// The sum over all inputs.
    public var total: FileStats {
        files.reduce(into: FileStats(name: "total")) { $0.add($1) }
    }
}
