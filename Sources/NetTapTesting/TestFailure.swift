import Testing
import XCTest

/// Where a test failure is reported: the test line that made the failing call.
///
/// Captured from the caller's `#fileID`, `#filePath`, `#line` and `#column` defaults, so a failure points at
/// the user's test, not at NetTap.
public struct TestSourceLocation: Sendable, CustomStringConvertible {
    /// The file ID, `Module/File.swift`.
    public var fileID: String
    /// The full path of the file, as XCTest wants it.
    public var filePath: StaticString
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location; the defaults capture the caller's position.
    ///
    /// - Parameters:
    ///   - fileID: The file ID.
    ///   - filePath: The full file path.
    ///   - line: The line.
    ///   - column: The column.
    public init(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `Module/File.swift:line:column`.
    public var description: String { "\(fileID):\(line):\(column)" }
}

/// Reports test failures to whichever test framework is running the current test.
///
/// Inside a Swift Testing test (`Test.current` is set) the failure becomes an `Issue` at the given location;
/// otherwise it is an `XCTFail` at that file and line (XCTest, including XCTest on Linux). Call it from a
/// running test: that is where both frameworks can attribute a failure.
public enum TestFailure {
    /// Records one failure.
    ///
    /// - Parameters:
    ///   - message: What went wrong, one or more lines.
    ///   - location: The test line to blame.
    public static func record(_ message: String, at location: TestSourceLocation) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: location.fileID,
                    filePath: "\(location.filePath)",
                    line: location.line,
                    column: location.column
                )
            )
        } else {
            XCTFail(message, file: location.filePath, line: UInt(location.line))
        }
    }
}
