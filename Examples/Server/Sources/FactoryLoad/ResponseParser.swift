/// One HTTP/1.1 response, read whole.
struct ParsedResponse {
    var status: Int
    /// The `X-Request-ID` header, if any.
    var requestID: String?
    /// Whether the server said it closes the connection after this response.
    var closes: Bool
    /// The body (empty for `HEAD`).
    var body: ArraySlice<UInt8>
    /// Bytes of the response, head and body.
    var length: Int
}

/// Reads a response from the bytes received so far.
enum ResponseParser {
    enum Result {
        /// The bytes so far are the start of a response: read more.
        case incomplete
        /// A whole response.
        case complete(ParsedResponse)
        /// Not an HTTP/1.1 response.
        case malformed(String)
    }

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)

    /// Parses `bytes`, the response to a request that was a `HEAD` when `isHead`.
    static func parse(_ bytes: [UInt8], isHead: Bool) -> Result {
        guard let end = find(headEnd, in: bytes, from: 0) else {
            return bytes.count > 65_536 ? .malformed("response head over 64 KB") : .incomplete
        }
        let head = bytes[0..<end]
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0
        }
        guard !lines.isEmpty else { return .malformed("empty head") }
        let statusLine = lines.removeFirst()
        // "HTTP/1.1 200 OK"
        let parts = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)),
            let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...599).contains(status)
        else {
            return .malformed("status line '\(String(decoding: statusLine.prefix(80), as: UTF8.self))'")
        }
        var contentLength: Int?
        var chunked = false
        var closes = parts[0].elementsEqual("HTTP/1.0".utf8)
        var requestID: String?
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .malformed("header line without a colon")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else { return .malformed("Content-Length '\(value)'") }
                contentLength = length
            case "transfer-encoding":
                chunked = value.lowercased().contains("chunked")
            case "connection":
                closes = value.lowercased().contains("close") ? true : closes
            case "x-request-id":
                requestID = value
            default:
                break
            }
        }
        let bodyStart = end + headEnd.count
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) {
            return .complete(
                ParsedResponse(status: status, requestID: requestID, closes: closes, body: [], length: bodyStart))
        }
        if chunked {
            return parseChunks(bytes, from: bodyStart, status: status, requestID: requestID, closes: closes)
        }
        guard let contentLength else {
            // A body that ends when the connection does: none of this server's answers.
            return .malformed("neither Content-Length nor chunked")
        }
        guard bytes.count >= bodyStart + contentLength else { return .incomplete }
        return .complete(
            ParsedResponse(
                status: status, requestID: requestID, closes: closes,
                body: bytes[bodyStart..<(bodyStart + contentLength)], length: bodyStart + contentLength))
    }

    private static func parseChunks(
        _ bytes: [UInt8], from start: Int, status: Int, requestID: String?, closes: Bool
    ) -> Result {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { return .incomplete }
            let sizeText =
                String(decoding: bytes[index..<lineEnd], as: UTF8.self)
                .split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
                return .malformed("chunk size '\(sizeText.prefix(20))'")
            }
            index = lineEnd + 2
            if size == 0 {
                // No trailers from this server: the final CRLF.
                guard bytes.count >= index + 2 else { return .incomplete }
                return .complete(
                    ParsedResponse(
                        status: status, requestID: requestID, closes: closes, body: body[...], length: index + 2))
            }
            guard bytes.count >= index + size + 2 else { return .incomplete }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size + 2
        }
    }

    /// The index of the first `needle` in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    /// Whether `needle` occurs in `bytes`.
    static func contains(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Bool {
        find(needle, in: Array(bytes), from: 0) != nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[first...last])
    }
}
