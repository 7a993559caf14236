import Foundation
import Testing

/// How the build plugin and the CLI read stateloop-config.json (compiled into this test target from
/// the same files, Plugins/PluginsShared/StateLoopConfiguration.swift and TemplateFolder.swift).
@Suite struct StateLoopConfigurationTests {
    typealias Position = StateLoopConfiguration.Position

    static func read(_ text: String, path: String = "cfg.json") throws(StateLoopConfiguration.ProblemList) -> StateLoopConfiguration {
        try StateLoopConfiguration(json: Array(text.utf8), path: path)
    }

    @Test func eachValueKeepsItsLineAndColumn() throws {
        let configuration = try Self.read("""
            {
              "note": {"templates": "not this one", "list": [1, "two"]},
              "accessLevel":
                 "internal", "t\\u00e9mplates": 1,
              "templates": "Stenciled"
            }
            """)
        #expect(configuration.accessLevel == .init(value: "internal", position: Position(line: 4, column: 6)))
        #expect(configuration.templates == .init(value: "Stenciled", position: Position(line: 5, column: 16)))
    }

    @Test func columnsCountUnicodeScalars() throws {
        let configuration = try Self.read(#"{"é": "ü", "templates": "T"}"#)
        #expect(configuration.templates?.position == Position(line: 1, column: 25))
    }

    @Test func aValueOfTheWrongTypeIsAProblemAtTheValue() {
        #expect(throws: StateLoopConfiguration.ProblemList([
            .init(file: "cfg.json", position: Position(line: 1, column: 17), message: "\"accessLevel\" must be a string", fix: #"write it in quotes, as in "internal""#),
            .init(file: "cfg.json", position: Position(line: 2, column: 15), message: "\"templates\" must be a string", fix: StateLoopConfiguration.templatesFix),
        ])) {
            try Self.read("{\"accessLevel\": null,\n \"templates\": {}}")
        }
    }

    @Test func textThatIsNotJSONIsAProblemWhereItGoesWrong() {
        do {
            _ = try Self.read("{\n  \"accessLevel\": \"internal\",\n  templates: 1\n}")
            Issue.record("not JSON, but read")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.position == Position(line: 3, column: 3))
            #expect(error.problems.first?.compilerStyleError.hasPrefix("cfg.json:3:3: error: the configuration is not valid JSON") == true)
        }
    }

    @Test func templatesAreRelativeToTheConfigurationsFolder() throws {
        #expect(try Self.read(#"{"templates": "T"}"#, path: "Sources/App/stateloop-config.json").templatesDirectory == "Sources/App/T")
        #expect(try Self.read(#"{"templates": "T"}"#, path: "stateloop-config.json").templatesDirectory == "T")
        #expect(try Self.read(#"{"templates": "/abs/T"}"#, path: "a/stateloop-config.json").templatesDirectory == "/abs/T")
    }
}
