#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Non-blocking TCP sockets to the server on loopback, in POSIX calls.
enum Socket {
    /// The outcome of starting a connection.
    enum Connect {
        /// Connected, or connecting (wait until writable, then ``pendingError(_:)``).
        case started(Int32)
        /// Refused at once.
        case failed(Int32)
    }

    /// Starts a non-blocking connection to 127.0.0.1:`port`.
    static func connect(port: Int) -> Connect {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(errno) }
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var one: Int32 = 1
        #if canImport(Glibc)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #else
        _ = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        if result == 0 || errno == EINPROGRESS {
            return .started(fd)
        }
        let error = errno
        close(fd)
        return .failed(error)
    }

    /// The error of a connection that became writable: 0 when it connected.
    static func pendingError(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// Ends our side of the connection (we send nothing more).
    static func shutdownWrites(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(fd, SHUT_WR)
        #endif
    }

    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Writes what it can of `bytes[offset...]`: the count written, 0 if it would
    /// block, or `-errno`.
    static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
        let written = bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            #else
            send(fd, buffer.baseAddress! + offset, buffer.count - offset, 0)
            #endif
        }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -Int(errno)
    }

    /// Reads what is there into `buffer`: the count read, 0 at the end of the
    /// stream, `nil` if it would block, or `-errno`.
    static func read(_ fd: Int32, into buffer: inout [UInt8], scratch: inout [UInt8]) -> Int? {
        let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: scratch[0..<count])
            return count
        }
        if count == 0 { return 0 }
        return errno == EAGAIN || errno == EWOULDBLOCK ? nil : -Int(errno)
    }
}

/// Monotonic time in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
