#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an input could not be read.
public struct TextSourceError: Error, CustomStringConvertible {
    /// The input's name.
    public let name: String
    /// The C library's `errno` at the failure.
    public let code: Int32

    /// A one-line message for the terminal.
    public var description: String {
        "cannot read '\(name)': \(String(cString: strerror(code)))"
    }
}
