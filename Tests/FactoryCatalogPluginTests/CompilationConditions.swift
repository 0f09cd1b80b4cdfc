/// Evaluates an `#if` condition as the compiler does for one module of this build:
/// its `-D` flags, the platform this test runs on (the same toolchain and target
/// built the module), and `canImport` of the build's modules and the platform's.
/// A platform condition it does not know is an error naming it, never a guess.
struct CompilationConditions {
    struct Unknown: Error, CustomStringConvertible {
        let description: String
    }

    /// The module's `-D` flags.
    let flags: Set<String>
    /// The modules of the build (`canImport` finds them).
    let buildModules: Set<String>

    /// Whether code under `condition` is compiled (`nil`: no `#if` around it).
    func holds(_ condition: String?) throws -> Bool {
        guard let condition else { return true }
        return try evaluate(condition)
    }

    func evaluate(_ condition: String) throws -> Bool {
        var parser = Parser(tokens: Self.tokens(condition), conditions: self)
        let value = try parser.disjunction()
        guard parser.index == parser.tokens.count else {
            throw Unknown(description: "cannot read `\(condition)` past token \(parser.index)")
        }
        return value
    }

    private static func tokens(_ condition: String) -> [String] {
        var tokens: [String] = []
        var rest = Substring(condition)
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("&&") || rest.hasPrefix("||") {
                tokens.append(String(rest.prefix(2)))
                rest = rest.dropFirst(2)
            } else if first == "(" || first == ")" || first == "!" {
                tokens.append(String(first))
                rest = rest.dropFirst()
            } else {
                let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                guard !word.isEmpty else {
                    tokens.append(String(first))
                    rest = rest.dropFirst()
                    continue
                }
                tokens.append(String(word))
                rest = rest.dropFirst(word.count)
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        let conditions: CompilationConditions
        var index = 0

        private var next: String? { index < tokens.count ? tokens[index] : nil }

        mutating func disjunction() throws -> Bool {
            var value = try conjunction()
            while next == "||" {
                index += 1
                value = try conjunction() || value
            }
            return value
        }

        private mutating func conjunction() throws -> Bool {
            var value = try unary()
            while next == "&&" {
                index += 1
                value = try unary() && value
            }
            return value
        }

        private mutating func unary() throws -> Bool {
            if next == "!" {
                index += 1
                return try !unary()
            }
            if next == "(" {
                index += 1
                let value = try disjunction()
                guard next == ")" else { throw Unknown(description: "unbalanced parentheses in \(tokens.joined())") }
                index += 1
                return value
            }
            guard let name = next else { throw Unknown(description: "a condition ends early: \(tokens.joined())") }
            index += 1
            guard next == "(" else {
                if name == "true" { return true }
                if name == "false" { return false }
                return conditions.flags.contains(name)
            }
            index += 1
            var argument: [String] = []
            while let token = next, token != ")" {
                argument.append(token)
                index += 1
            }
            index += 1
            return try conditions.platform(name, argument.joined())
        }
    }

    /// `os(...)`, `arch(...)`, `canImport(...)`, `targetEnvironment(...)`, as this test's own build has them.
    private func platform(_ function: String, _ argument: String) throws -> Bool {
        switch function {
        case "os":
            guard Self.operatingSystems.contains(argument) else { break }
            return argument == Self.operatingSystem
        case "arch":
            guard Self.architectures.contains(argument) else { break }
            return argument == Self.architecture
        case "canImport":
            if buildModules.contains(argument) { return true }
            if let known = Self.systemModules[argument] { return known }
        case "targetEnvironment":
            if argument == "simulator" { return Self.isSimulator }
            if argument == "macCatalyst" { return Self.isMacCatalyst }
        default:
            break
        }
        throw Unknown(
            description: "\(function)(\(argument)) is unknown to CompilationConditions: add it (Tests/FactoryCatalogPluginTests)")
    }

    private static let operatingSystems: Set<String> = [
        "Linux", "macOS", "iOS", "tvOS", "watchOS", "visionOS", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI",
    ]
    private static let architectures: Set<String> = ["x86_64", "arm64", "i386", "arm", "wasm32", "powerpc64le", "s390x"]

    private static let operatingSystem: String = {
        #if os(Linux)
        "Linux"
        #elseif os(macOS)
        "macOS"
        #elseif os(iOS)
        "iOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Windows)
        "Windows"
        #elseif os(Android)
        "Android"
        #else
        "other"
        #endif
    }()

    private static let architecture: String = {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "other"
        #endif
    }()

    private static let isSimulator: Bool = {
        #if targetEnvironment(simulator)
        true
        #else
        false
        #endif
    }()

    private static let isMacCatalyst: Bool = {
        #if targetEnvironment(macCatalyst)
        true
        #else
        false
        #endif
    }()

    /// The platform's modules the sources ask about, as the compiler answers for this test.
    private static let systemModules: [String: Bool] = {
        var modules: [String: Bool] = [:]
        #if canImport(Darwin)
        modules["Darwin"] = true
        #else
        modules["Darwin"] = false
        #endif
        #if canImport(Glibc)
        modules["Glibc"] = true
        #else
        modules["Glibc"] = false
        #endif
        #if canImport(Musl)
        modules["Musl"] = true
        #else
        modules["Musl"] = false
        #endif
        #if canImport(Foundation)
        modules["Foundation"] = true
        #else
        modules["Foundation"] = false
        #endif
        #if canImport(XCTest)
        modules["XCTest"] = true
        #else
        modules["XCTest"] = false
        #endif
        #if canImport(Testing)
        modules["Testing"] = true
        #else
        modules["Testing"] = false
        #endif
        #if canImport(Observation)
        modules["Observation"] = true
        #else
        modules["Observation"] = false
        #endif
        #if canImport(SwiftUI)
        modules["SwiftUI"] = true
        #else
        modules["SwiftUI"] = false
        #endif
        #if canImport(UIKit)
        modules["UIKit"] = true
        #else
        modules["UIKit"] = false
        #endif
        #if canImport(AppKit)
        modules["AppKit"] = true
        #else
        modules["AppKit"] = false
        #endif
        #if canImport(Combine)
        modules["Combine"] = true
        #else
        modules["Combine"] = false
        #endif
        #if canImport(Dispatch)
        modules["Dispatch"] = true
        #else
        modules["Dispatch"] = false
        #endif
        #if canImport(Synchronization)
        modules["Synchronization"] = true
        #else
        modules["Synchronization"] = false
        #endif
        return modules
    }()
}
