/// What a Swift source file says about its factories, read from the text: the
/// `#if` conditions each line sits under, and every factory property declared in a
/// type or extension body, in every branch of every `#if`.
///
/// The symbol graph knows only the branches the build compiled. The source scan
/// gives the rest: the condition each catalog entry keeps, and the factories of the
/// branches left out here (another platform's, a release build's), so that every
/// machine writes the same catalog. It reads declarations as written; the symbol
/// graph stays the authority on what it compiled.
struct SourceFile {
    /// A factory property as the source declares it.
    struct Declaration: Equatable {
        /// The line of the property's name, 1-based.
        let line: Int
        /// The type the property is declared in, as written: `Container`, `Outer.Inner`.
        let container: String
        let property: String
        let kind: FactoryKind
        /// The declared access level, or what the enclosing extension gives its members.
        let access: String
        let isStatic: Bool
        let isMainActor: Bool
        /// A type that encloses the declaration is `private` or `fileprivate`.
        let isInPrivateType: Bool
        /// The `#if` condition the declaration sits under (see ``SourceFile/condition(atLine:)``).
        let condition: String?
    }

    /// The file, relative to the package.
    let path: String
    let declarations: [Declaration]
    /// Types this file declares with `SharedContainer` or `ManagedContainer` among
    /// their inherited types, by their path (`Outer.Inner`).
    let containerTypes: Set<String>
    /// Each `#if`, `#elseif`, `#else` and `#endif`, in order, with its line.
    private let directives: [(line: Int, directive: Directive)]

    init(path: String, text: String) {
        self.path = path
        var parser = SourceParser(lexemes: SourceLexer(text).lexemes())
        parser.parse()
        declarations = parser.declarations
        containerTypes = parser.containerTypes
        directives = parser.directives
    }

    /// The condition under which line `line` is compiled: the conditions of the
    /// `#if` blocks around it joined with `&&`, a branch after the first negating
    /// those before it (`#else` after `#if os(Linux)` is `!os(Linux)`); `nil` when
    /// no block encloses it.
    func condition(atLine line: Int) -> String? {
        var stack = ConditionStack()
        for (directiveLine, directive) in directives where directiveLine < line { stack.apply(directive) }
        return stack.condition
    }
}

/// A compiler directive of a conditional block.
enum Directive: Equatable {
    case `if`(String)
    case elseif(String)
    case `else`
    case endif
}

/// The `#if` blocks open at a point of a file.
struct ConditionStack {
    /// Per open block: the conditions of its earlier branches, and the current
    /// branch's (`nil` in `#else`).
    private var frames: [(earlier: [String], current: String?)] = []

    mutating func apply(_ directive: Directive) {
        switch directive {
        case .if(let condition):
            frames.append(([], condition))
        case .elseif(let condition):
            guard var frame = frames.popLast() else { return }
            if let current = frame.current { frame.earlier.append(current) }
            frames.append((frame.earlier, condition))
        case .else:
            guard var frame = frames.popLast() else { return }
            if let current = frame.current { frame.earlier.append(current) }
            frames.append((frame.earlier, nil))
        case .endif:
            _ = frames.popLast()
        }
    }

    var condition: String? {
        let parts = frames.flatMap { frame in frame.earlier.map(Self.negated) + (frame.current.map { [$0] } ?? []) }
        guard !parts.isEmpty else { return nil }
        if parts.count == 1 { return parts[0] }
        return parts.map { Self.hasTopLevelOr($0) ? "(\($0))" : $0 }.joined(separator: " && ")
    }

    /// Whether `condition` has an `||` outside parentheses, so that it needs them in a conjunction.
    private static func hasTopLevelOr(_ condition: String) -> Bool {
        var depth = 0
        var previous: Character?
        for character in condition {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 && character == "|" && previous == "|" { return true }
            previous = character
        }
        return false
    }

    /// `!DEBUG`, `!os(Linux)`; `!(a || b)` for anything longer than one term.
    static func negated(_ condition: String) -> String {
        isTerm(condition) ? "!" + condition : "!(\(condition))"
    }

    /// A name, or a name and one parenthesized argument list: `DEBUG`, `os(Linux)`, `swift(>=6.0)`.
    private static func isTerm(_ condition: String) -> Bool {
        let name = condition.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        let rest = condition.dropFirst(name.count)
        if rest.isEmpty { return true }
        guard rest.first == "(", rest.last == ")" else { return false }
        var depth = 0
        for (index, character) in rest.enumerated() {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 && index < rest.count - 1 { return false }
        }
        return true
    }
}

/// One token of Swift source, with the line it starts on.
struct Lexeme {
    enum Token: Equatable {
        /// An identifier or keyword (a backticked one without its backticks).
        case word(String)
        /// One of `{ } ( ) [ ] < > : ; , = @ . ? !`.
        case punctuation(Character)
        case directive(Directive)
        /// A literal, an operator, or anything else the scan does not read.
        case other
    }

    let token: Token
    let line: Int
}

/// Splits Swift source into the lexemes the scan reads. Comments and the insides
/// of string and regex literals (interpolations included) are passed over, so that
/// a brace or a `var` inside them counts for nothing.
struct SourceLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var result: [Lexeme] = []
    /// Whether only whitespace precedes `index` on its line (a directive must start a line).
    private var atLineStart = true
    /// Whether the last lexeme ended an operand (a name, a literal, `)`, `]`, `}`): a `/`
    /// after one divides, while a `/` where an operand begins may start a regex literal.
    private var afterOperand = false

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    func lexemes() -> [Lexeme] {
        var lexer = self
        lexer.run()
        return lexer.result
    }

    private static let punctuation: Set<Unicode.Scalar> = [
        "{", "}", "(", ")", "[", "]", "<", ">", ":", ";", ",", "=", "@", ".", "?", "!",
    ]

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            atLineStart = true
        }
        index += 1
    }

    private mutating func run() {
        while let scalar = peek() {
            if scalar == "\n" || scalar == " " || scalar == "\t" || scalar == "\r" {
                advance()
                continue
            }
            let startLine = line
            let startsLine = atLineStart
            atLineStart = false
            if scalar == "/" && peek(1) == "/" {
                skipLineComment()
                continue
            } else if scalar == "/" && peek(1) == "*" {
                skipBlockComment()
                continue
            }
            let operandBefore = afterOperand
            afterOperand = false
            if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                skipString()
                result.append(Lexeme(token: .other, line: startLine))
                afterOperand = true
            } else if scalar == "#" && isExtendedRegexStart() {
                skipExtendedRegex()
                result.append(Lexeme(token: .other, line: startLine))
                afterOperand = true
            } else if scalar == "/" && !operandBefore && skipBareRegex() {
                result.append(Lexeme(token: .other, line: startLine))
                afterOperand = true
            } else if scalar == "#" {
                index += 1
                let word = readWord()
                if startsLine, let directive = directive(word) {
                    result.append(Lexeme(token: .directive(directive), line: startLine))
                } else {
                    result.append(Lexeme(token: .other, line: startLine))
                }
            } else if scalar == "`" {
                // A backticked name, raw (`a name with spaces`, SE-0451) or a keyword.
                index += 1
                var word = ""
                while let scalar = peek(), scalar != "`", scalar != "\n" {
                    word.unicodeScalars.append(scalar)
                    index += 1
                }
                if peek() == "`" { index += 1 }
                result.append(Lexeme(token: .word(word), line: startLine))
                afterOperand = true
            } else if Self.isWordStart(scalar) {
                let word = readWord()
                result.append(Lexeme(token: .word(word), line: startLine))
                afterOperand = !Self.keywordsBeforeAnOperand.contains(word)
            } else if Self.punctuation.contains(scalar) {
                index += 1
                result.append(Lexeme(token: .punctuation(Character(scalar)), line: startLine))
                afterOperand = Self.operandEnds.contains(scalar)
            } else {
                advance()
                result.append(Lexeme(token: .other, line: startLine))
                afterOperand = scalar.properties.numericType != nil
            }
        }
    }

    /// Punctuation after which an operand has ended: `a) / b`, `x! / y`.
    private static let operandEnds: Set<Unicode.Scalar> = [")", "]", "}", ">", "!", "?"]

    /// Keywords after which an operand begins, so that a `/` there starts a regex literal.
    private static let keywordsBeforeAnOperand: Set<String> = [
        "return", "case", "in", "where", "try", "await", "if", "guard", "while", "switch", "throw", "is", "as", "else",
        "repeat", "yield", "some", "any", "each",
    ]

    private static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic
    }

    private mutating func readWord() -> String {
        var word = ""
        while let scalar = peek(), Self.isWordStart(scalar) || scalar.properties.numericType != nil {
            word.unicodeScalars.append(scalar)
            index += 1
        }
        return word
    }

    /// The directive `#word` starts, reading its condition to the end of the line.
    private mutating func directive(_ word: String) -> Directive? {
        switch word {
        case "if": return .if(readCondition())
        case "elseif": return .elseif(readCondition())
        case "else":
            skipLine()
            return .else
        case "endif":
            skipLine()
            return .endif
        default: return nil
        }
    }

    /// The rest of the line, without a comment, its spaces collapsed.
    private mutating func readCondition() -> String {
        var text = ""
        while let scalar = peek(), scalar != "\n" {
            if scalar == "/" && (peek(1) == "/" || peek(1) == "*") { break }
            text.unicodeScalars.append(scalar)
            index += 1
        }
        skipLine()
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    /// Passes over the rest of a directive's line, and a block comment that starts on it.
    private mutating func skipLine() {
        while let scalar = peek(), scalar != "\n" {
            if scalar == "/" && peek(1) == "/" {
                skipLineComment()
            } else if scalar == "/" && peek(1) == "*" {
                skipBlockComment()
            } else {
                index += 1
            }
        }
    }

    /// Passes over a `//` comment: a `/*` inside it opens nothing.
    private mutating func skipLineComment() {
        while let scalar = peek(), scalar != "\n" { index += 1 }
    }

    /// `#/`, `##/`, ...: an extended regex literal.
    private func isExtendedRegexStart() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "/"
    }

    /// Passes over `#/.../#` (which may span lines), to the `/` followed by as many `#` as opened it.
    private mutating func skipExtendedRegex() {
        var hashes = 0
        while peek() == "#" {
            hashes += 1
            index += 1
        }
        index += 1
        while let scalar = peek() {
            if scalar == "\\" {
                index += 1
                if peek() != nil { advance() }
            } else if scalar == "/" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                index += 1 + hashes
                return
            } else {
                advance()
            }
        }
    }

    /// At a `/` where an operand begins: passes over a bare regex literal `/.../` and
    /// returns `true`, or returns `false` and moves nothing when the `/` cannot start
    /// one (SE-0354: it does not start with a space, and ends on its line after
    /// something that is not a space).
    private mutating func skipBareRegex() -> Bool {
        guard let first = peek(1), first != " ", first != "\t", first != "\n" else { return false }
        var offset = 1
        var inClass = 0
        while let scalar = peek(offset), scalar != "\n" {
            if scalar == "\\" {
                offset += 2
                continue
            }
            if scalar == "[" { inClass += 1 }
            if scalar == "]" && inClass > 0 { inClass -= 1 }
            if scalar == "/" && inClass == 0 {
                guard peek(offset - 1) != " " else { return false }
                index += offset + 1
                return true
            }
            offset += 1
        }
        return false
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while peek() != nil {
            if peek() == "/" && peek(1) == "*" {
                depth += 1
                index += 2
            } else if peek() == "*" && peek(1) == "/" {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                advance()
            }
        }
    }

    private func isRawStringStart() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "\""
    }

    /// Passes over a string literal: `"..."`, `"""..."""`, raw (`#"..."#`) or not,
    /// interpolations and the literals inside them included.
    private mutating func skipString() {
        var hashes = 0
        while peek() == "#" {
            hashes += 1
            index += 1
        }
        let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
        index += multiline ? 3 : 1
        while let scalar = peek() {
            if scalar == "\\" && isEscape(at: index + 1, hashes: hashes) {
                index += 1 + hashes
                if peek() == "(" {
                    skipInterpolation()
                } else if peek() != nil {
                    advance()
                }
            } else if scalar == "\"" && closes(multiline: multiline, hashes: hashes) {
                index += (multiline ? 3 : 1) + hashes
                return
            } else if scalar == "\n" && !multiline {
                return
            } else {
                advance()
            }
        }
    }

    private func isEscape(at position: Int, hashes: Int) -> Bool {
        (0..<hashes).allSatisfy { position + $0 < scalars.count && scalars[position + $0] == "#" }
    }

    private func closes(multiline: Bool, hashes: Int) -> Bool {
        let quotes = multiline ? 3 : 1
        for offset in 0..<quotes where peek(offset) != "\"" { return false }
        return (0..<hashes).allSatisfy { peek(quotes + $0) == "#" }
    }

    /// Passes over `(...)` of an interpolation, with the strings and comments inside it.
    private mutating func skipInterpolation() {
        var depth = 0
        while let scalar = peek() {
            if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                skipString()
                continue
            }
            if scalar == "/" && peek(1) == "/" {
                skipLineComment()
                continue
            }
            if scalar == "/" && peek(1) == "*" {
                skipBlockComment()
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            }
            advance()
        }
    }
}

/// Reads type and extension bodies out of the lexemes and the factory properties
/// declared directly in them (not in a function or a closure), in every branch.
struct SourceParser {
    private let lexemes: [Lexeme]
    private(set) var declarations: [SourceFile.Declaration] = []
    private(set) var containerTypes: Set<String> = []
    private(set) var directives: [(line: Int, directive: Directive)] = []

    /// A `{ }` body: of a type or extension (with its path and what it gives its
    /// members), or anything else.
    private enum Scope {
        case type(path: [String], memberAccess: String?, isPrivate: Bool)
        case other
    }

    /// A type or extension declaration whose body has not started yet.
    private struct Header {
        let path: [String]
        let memberAccess: String?
        let isPrivate: Bool
        var isContainer = false
    }

    private var scopes: [Scope] = []
    private var header: Header?
    private var conditions = ConditionStack()

    init(lexemes: [Lexeme]) {
        self.lexemes = lexemes
    }

    private static let typeKeywords: Set<String> = ["extension", "class", "struct", "enum", "actor", "protocol"]
    private static let accessKeywords: Set<String> = ["private", "fileprivate", "internal", "package", "public", "open"]
    private static let modifierKeywords: Set<String> = [
        "static", "class", "final", "nonisolated", "override", "lazy", "dynamic", "weak", "unowned", "mutating",
        "nonmutating", "required", "convenience", "indirect", "optional", "distributed",
    ]

    private func word(at index: Int) -> String? {
        guard index >= 0, index < lexemes.count, case .word(let word) = lexemes[index].token else { return nil }
        return word
    }

    private func isPunctuation(_ character: Character, at index: Int) -> Bool {
        index >= 0 && index < lexemes.count && lexemes[index].token == .punctuation(character)
    }

    mutating func parse() {
        var index = 0
        while index < lexemes.count {
            let lexeme = lexemes[index]
            switch lexeme.token {
            case .directive(let directive):
                directives.append((lexeme.line, directive))
                conditions.apply(directive)
            case .punctuation("{"):
                if let header {
                    scopes.append(.type(path: header.path, memberAccess: header.memberAccess, isPrivate: header.isPrivate))
                    if header.isContainer { containerTypes.insert(header.path.joined(separator: ".")) }
                } else {
                    scopes.append(.other)
                }
                header = nil
            case .punctuation("}"):
                _ = scopes.popLast()
                header = nil
            case .punctuation(";"):
                header = nil
            case .word(let word) where header != nil:
                if word == "SharedContainer" || word == "ManagedContainer" { header?.isContainer = true }
            case .word(let word) where Self.typeKeywords.contains(word) && isDeclarationLevel:
                index = readHeader(at: index)
                continue
            case .word("var"), .word("let"):
                if case .type = scopes.last { readProperty(at: index) }
            default:
                break
            }
            index += 1
        }
    }

    /// At the top level of the file or directly in a type or extension body.
    private var isDeclarationLevel: Bool {
        guard let scope = scopes.last else { return true }
        if case .type = scope { return true }
        return false
    }

    /// Reads `extension A.B`, `class Name`, ... up to its name; returns the index
    /// after it. `class var` and `class func` are modifiers, not a type.
    private mutating func readHeader(at index: Int) -> Int {
        let keyword = word(at: index)!
        var next = index + 1
        guard var name = word(at: next) else { return next }
        if keyword == "class"
            && (Self.modifierKeywords.contains(name) || ["var", "let", "func", "subscript", "init"].contains(name))
        {
            return next
        }
        var path = [name]
        next += 1
        while keyword == "extension", isPunctuation(".", at: next), let part = word(at: next + 1) {
            path.append(part)
            next += 2
        }
        name = path.joined(separator: ".")
        let modifiers = self.modifiers(before: index)
        let declared = modifiers.access
        let enclosing: [String]
        var enclosingPrivate = false
        if case .type(let outer, _, let isPrivate) = scopes.last {
            enclosing = outer
            enclosingPrivate = isPrivate
        } else {
            enclosing = []
        }
        let isPrivate = enclosingPrivate || declared == "private" || declared == "fileprivate"
        if keyword == "extension" {
            // Members of a `private extension` are fileprivate; of a `public` one, public.
            let memberAccess = declared == "private" ? "fileprivate" : declared
            header = Header(path: path, memberAccess: memberAccess, isPrivate: isPrivate)
        } else {
            header = Header(path: enclosing + path, memberAccess: nil, isPrivate: isPrivate)
        }
        return next
    }

    /// Records `var name: Kind<...>` at `index` when `Kind` is a factory kind.
    private mutating func readProperty(at index: Int) {
        guard case .type(let path, let memberAccess, let isPrivate) = scopes.last,
            let property = word(at: index + 1), isPunctuation(":", at: index + 2), var type = word(at: index + 3)
        else { return }
        var typeIndex = index + 3
        if FactoryKind.qualifiers.contains(type), isPunctuation(".", at: typeIndex + 1), let qualified = word(at: typeIndex + 2) {
            type = qualified
            typeIndex += 2
        }
        guard let kind = FactoryKind.named(type), isPunctuation("<", at: typeIndex + 1) else { return }
        let modifiers = self.modifiers(before: index)
        declarations.append(
            SourceFile.Declaration(
                line: lexemes[index + 1].line, container: path.joined(separator: "."), property: property, kind: kind,
                access: modifiers.access ?? memberAccess ?? "internal", isStatic: modifiers.isStatic,
                isMainActor: modifiers.attributes.contains("MainActor"), isInPrivateType: isPrivate,
                condition: conditions.condition))
    }

    /// The attributes and modifiers written before the keyword at `index`.
    private func modifiers(before index: Int) -> (access: String?, isStatic: Bool, attributes: Set<String>) {
        var access: String?
        var isStatic = false
        var attributes: Set<String> = []
        var cursor = index - 1
        while cursor >= 0 {
            if isPunctuation(")", at: cursor) {
                // An attribute's arguments, or the `(set)` of `private(set)`.
                var depth = 0
                while cursor >= 0 {
                    if isPunctuation(")", at: cursor) { depth += 1 }
                    if isPunctuation("(", at: cursor) { depth -= 1 }
                    if depth == 0 { break }
                    cursor -= 1
                }
                cursor -= 1
                if let word = word(at: cursor), Self.accessKeywords.contains(word) {
                    cursor -= 1
                    continue
                }
            }
            guard let word = word(at: cursor) else { break }
            if isPunctuation("@", at: cursor - 1) {
                attributes.insert(word)
                cursor -= 2
            } else if Self.accessKeywords.contains(word) {
                access = access ?? word
                cursor -= 1
            } else if Self.modifierKeywords.contains(word) {
                if word == "static" || word == "class" { isStatic = true }
                cursor -= 1
            } else {
                break
            }
        }
        return (access, isStatic, attributes)
    }
}
