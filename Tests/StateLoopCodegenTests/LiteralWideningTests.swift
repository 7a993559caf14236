import Foundation
@testable import StateLoopCodegen
import Testing

/// `SourcePlacement.widened`: a string literal rewritten wider keeps its value, has exactly the
/// width asked for, and is refused only where no spelling has that width (README, "Expressions
/// are Swift"; `typeErrorsAfterWidenedLiteralsAreReportedAtTheirYAMLLineAndColumn` checks the columns).
@Suite struct LiteralWideningTests {
    static let literals = [#""abc""#, #""ü→""#, #""😀""#, #""it's""#, #""a\tb""#, ##"#"a"b"#"##, #""""#, #""é""#, #""a\u{1F600}\n""#]

    @Test func widenedLiteralsHaveTheWidthAskedForAndTheSameValue() throws {
        var checks: [String] = []
        for literal in Self.literals {
            for amount in 1...14 {
                let wider = SourcePlacement.widened(Array(literal.unicodeScalars), by: amount)
                guard let wider else {
                    // Only some widths up to 4 bytes are out of reach (`"abc"` by 1, 3 or 4), and odd ones for `""`.
                    #expect(amount <= 4 || (literal == #""""# && amount % 2 == 1), "\(literal) by \(amount)")
                    continue
                }
                let text = String(String.UnicodeScalarView(wider))
                #expect(text.utf8.count == literal.utf8.count + amount, "\(literal) by \(amount): \(text)")
                checks.append("precondition(\(text) == \(literal), \"line \(checks.count + 1)\")")
            }
        }
        #expect(SourcePlacement.widened(Array(#""abc""#.unicodeScalars), by: 2).map { String(String.UnicodeScalarView($0)) } == ##"#"abc"#"##)
        #expect(SourcePlacement.widened(Array(#""it's""#.unicodeScalars), by: 1).map { String(String.UnicodeScalarView($0)) } == #""it\'s""#)
        #expect(SourcePlacement.widened(Array(#""a\(n)""#.unicodeScalars), by: 2) == nil)  // an interpolation
        #expect(SourcePlacement.widened(Array(#""abc""#.unicodeScalars), by: 1) == nil)
        #expect(SourcePlacement.widened(Array(#""abc""#.unicodeScalars), by: 3) == nil)
        // Run, so that each value is compared, not only type-checked.
        let swiftc = try #require(Swiftc.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-widen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try (checks.joined(separator: "\n") + "\nprint(\(checks.count))\n").write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        for (program, arguments) in [(swiftc, ["-Onone", "-o", "widened", "main.swift"]), (directory.appendingPathComponent("widened").path, [])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(program): \(text)")
        }
    }
}
