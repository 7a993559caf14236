import Testing

/// The spec-file naming the build plugin, the command plugin and the CLI share (compiled into this
/// test target from the same file, Plugins/PluginsShared/SpecFileNaming.swift).
@Suite struct SpecFileNamingTests {
    @Test(arguments: [
        ("Specs/Door.machine.yml", "Door.machine.swift"),
        ("Door.machine.yaml", "Door.machine.swift"),
        ("a/b/Door.yml", "Door.machine.swift"),
        ("Door", "Door.machine.swift"),
        ("dir.v2/Traffic.Light.machine.yml", "Traffic.Light.machine.swift"),
        ("A.machine.yaml.machine.yml", "A.machine.yaml.machine.swift"),
        ("dir/.machine.yml", ".machine.machine.swift"),
    ])
    func theOutputIsNamedAfterTheSpecsStem(_ spec: String, _ expected: String) {
        #expect(SpecFileNaming.outputFileName(forSpecAt: spec) == expected)
    }

    @Test func aSpecIsAFileEndingInMachineYmlOrYamlWithAName() {
        #expect(SpecFileNaming.isSpec(fileName: "Door.machine.yml"))
        #expect(SpecFileNaming.isSpec(fileName: "Door.machine.yaml"))
        #expect(!SpecFileNaming.isSpec(fileName: ".machine.yml"))
        #expect(!SpecFileNaming.isSpec(fileName: "Door.yml"))
    }

    @Test func aLaterSpecWithTheSameOutputCollidesWithTheFirst() {
        let collisions = SpecFileNaming.collisions(["a/Door.machine.yml", "b/Door.machine.yaml", "c/Lamp.machine.yml", "d/Door.machine.yml"])
        #expect(collisions.map(\.spec) == ["b/Door.machine.yaml", "d/Door.machine.yml"])
        #expect(collisions.allSatisfy { $0.earlier == "a/Door.machine.yml" && $0.output == "Door.machine.swift" })
    }
}
