#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Reports a test failure to the framework running the test, at a source location
/// captured when the check was set up.
///
/// Which framework that is gets decided when the recorder is made, on the test's
/// task: strict mode may report from any thread, where Swift Testing's
/// `Test.current` is no longer visible.
struct IssueRecorder: Sendable {
    private enum Framework {
        case swiftTesting
        case xcTest
        case none
    }

    private let framework: Framework
    private let fileID: StaticString
    private let filePath: StaticString
    private let line: UInt
    private let column: UInt

    init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
        #if canImport(Testing)
        if Test.current != nil {
            framework = .swiftTesting
            return
        }
        #endif
        #if canImport(XCTest)
        framework = .xcTest
        #else
        framework = .none
        #endif
    }

    /// Fails the current test with `message`.
    func record(_ message: String) {
        switch framework {
        case .swiftTesting:
            #if canImport(Testing)
            // Off the test's task, Swift Testing still fails the run, unattributed.
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
            #endif
        case .xcTest:
            #if canImport(XCTest)
            XCTFail(message, file: filePath, line: line)
            #endif
        case .none:
            print("\(fileID):\(line): error: \(message)")
        }
    }
}
