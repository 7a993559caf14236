@testable import StateLoopCodegen
import StateLoopSpec
import Testing

/// The one printer of generated statements: indentation by level, blocks, and spec text in
/// `#sourceLocation` blocks that the next generated line closes.
@Suite struct SwiftPrinterTests {
    let placement = SourcePlacement(fileLiteral: "\"M.machine.yml\"")

    @Test func blocksIndentTheirBodyOneLevelAndCasesStayAtTheSwitchsLevel() {
        var out = SwiftPrinter(placement: placement, level: 1)
        out.block("func f(_ x: Int) -> Int {") { out in
            out.switchBlock("x") { out in
                out.block("case 0:", closing: nil) { $0.line("return 1") }
                out.line("default: return 0")
            }
        }
        out.line("")
        #expect(out.finished() == [
            "    func f(_ x: Int) -> Int {",
            "        switch x {",
            "        case 0:",
            "            return 1",
            "        default: return 0",
            "        }",
            "    }",
            "",
        ])
    }

    @Test func specTextSharesOneSourceLocationBlockUntilTheNextGeneratedLine() {
        var out = SwiftPrinter(placement: placement, level: 2)
        out.spec(Located("a + 1", at: SourceLocation(file: "M.machine.yml", line: 7, column: 20)), after: "_next.x = ")
        out.spec(Located("b", at: SourceLocation(file: "M.machine.yml", line: 8, column: 20)), after: "_next.y = ")
        out.line("_trace.take(0)")
        out.spec(Located("c", at: SourceLocation(file: "M.machine.yml", line: 9, column: 20)), after: "if ", then: "{")
        #expect(out.finished() == [
            "#sourceLocation(file: \"M.machine.yml\", line: 7)",
            "         _next.x = a + 1",
            "#sourceLocation(file: \"M.machine.yml\", line: 8)",
            "         _next.y = b",
            "#sourceLocation()",
            "        _trace.take(0)",
            "#sourceLocation(file: \"M.machine.yml\", line: 9)",
            "                if c",
            "        {",
            "#sourceLocation()",
        ])
    }
}
