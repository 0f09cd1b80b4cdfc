#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard error, so traces never mix with a report on stdout.
public struct StandardError: OutputWriting {
    /// Creates the writer.
    public init() {}

    /// Writes `text` to standard error.
    public func write(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = posixWrite(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
