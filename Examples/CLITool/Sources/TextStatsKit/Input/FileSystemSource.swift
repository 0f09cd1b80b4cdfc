#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files from disk, and standard input for `-`.
public struct FileSystemSource: TextSource {
    /// Creates the source.
    public init() {}

    /// Reads the file at `path`; throws ``TextSourceError`` when it cannot.
    public func read(_ name: String) throws -> String {
        if name == "-" {
            var text = ""
            while let line = readLine(strippingNewline: false) {
                text += line
            }
            return text
        }
        let descriptor = open(name, O_RDONLY)
        guard descriptor >= 0 else {
            throw TextSourceError(name: name, code: errno)
        }
        defer { close(descriptor) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                posixRead(descriptor, buffer.baseAddress!, buffer.count)
            }
            if count < 0 {
                throw TextSourceError(name: name, code: errno)
            }
            if count == 0 {
                break
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
