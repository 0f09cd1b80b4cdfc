import ServerApp

/// `swift run FactoryServer [--host 127.0.0.1] [--port 8080]`
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), arguments.indices.contains(index + 1) else {
        return nil
    }
    return arguments[index + 1]
}

let host = option("--host") ?? "127.0.0.1"
let port = option("--port").flatMap { Int($0) } ?? 8080
let app = buildApplication(host: host, port: port)
try await app.runService()
