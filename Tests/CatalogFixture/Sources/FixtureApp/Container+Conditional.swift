import FactoryScopes

// Factories under `#if`: the catalog keeps each one inside the same condition, and
// lists those of branches this machine does not compile, so that the file is the
// same on Linux and macOS, in debug and in release.
extension Container {
    #if DEBUG
    var debugMenu: Factory<DebugMenu> {
        self { DebugMenu(token: self.debugToken()) }
    }

    /// Private: skipped, inside its condition (the symbol graph gives no place for it).
    private var debugToken: Factory<String> {
        self { "token" }
    }
    #endif

    #if os(Linux)
    var files: Factory<any FileStore> {
        self { LinuxFileStore() }
    }
    #else
    var files: Factory<any FileStore> {
        self { DarwinFileStore() }
    }
    #endif

    #if os(iOS) || os(tvOS)
    @MainActor var haptics: Factory<Haptics> {
        self { Haptics() }
    }
    #elseif canImport(Glibc)
    var syslog: Factory<SystemLog> {
        self { SystemLog() }
    }
    #if DEBUG
    /// Nested: under both conditions.
    var verboseSyslog: ParameterFactory<Int, SystemLog> {
        self { _ in SystemLog() }
    }
    #endif
    #else
    private var unreachableLog: Factory<SystemLog> {
        self { SystemLog() }
    }
    #endif
}

#if os(macOS)
/// A container of one platform only: its factories are catalogued everywhere, inside its condition.
final class MenuBarContainer: SharedContainer {
    static let shared = MenuBarContainer()
    let manager = ContainerManager()

    var statusItem: Factory<StatusItem> {
        self { StatusItem() }
    }
}
#endif

#if DEBUG
// What the source scan must pass over: braces, `#if` and a factory-like declaration
// inside string literals and a block comment (a misread would shift every body after it).
extension Container {
    // swift-format-ignore: NoBlockComments
    /* #if os(Linux)
       var commentedOut: Factory<String> { */
    var decoy: Factory<String> {
        self {
            "} var notAFactory: Factory<Int> { \("{ #if DEBUG") \(#"}"#)" + #"{ "}" "#
                + """
                } #else
                """
        }
    }
}
#endif
