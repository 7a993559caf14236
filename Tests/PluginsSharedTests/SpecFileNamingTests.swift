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
    ])
    func theOutputIsNamedAfterTheSpecsStem(_ spec: String, _ expected: String) {
        #expect(SpecFileNaming.outputFileName(forSpecAt: spec) == expected)
    }

    @Test("D58: the lock of a spec lies beside it, named after its stem", arguments: [
        ("Specs/Door.machine.yml", "Specs/Door.machine.lock"),
        ("Door.machine.yaml", "Door.machine.lock"),
        ("dir.v2/Traffic.Light.machine.yml", "dir.v2/Traffic.Light.machine.lock"),
        ("A.machine.yaml.machine.yml", "A.machine.yaml.machine.lock"),
    ])
    func d58TheLockLiesBesideTheSpec(_ spec: String, _ expected: String) {
        #expect(SpecFileNaming.lockPath(forSpecAt: spec) == expected)
    }

    @Test func aSpecIsAFileEndingInMachineYmlOrYaml() {
        #expect(SpecFileNaming.isSpec(fileName: "Door.machine.yml"))
        #expect(SpecFileNaming.isSpec(fileName: "Door.machine.yaml"))
        #expect(SpecFileNaming.isSpec(fileName: ".machine.yml"))  // and refused, below
        #expect(!SpecFileNaming.isSpec(fileName: "Door.yml"))
    }

    @Test func aNameWithNothingBeforeTheSuffixOrWithAQuoteIsRefused() {
        #expect(SpecFileNaming.refusal(ofSpecAt: "dir/.machine.yml")?.compilerStyleError
            == "dir/.machine.yml:1:1: error: the spec's file name has nothing before .machine.yml; name it after its machine, as in Door.machine.yml")
        #expect(SpecFileNaming.refusal(ofSpecAt: ".machine.yaml")?.message
            == "the spec's file name has nothing before .machine.yaml; name it after its machine, as in Door.machine.yaml")
        #expect(SpecFileNaming.refusal(ofSpecAt: "a/Ha\"tch.machine.yml")?.message
            == "a spec's file name cannot contain '\"' (SwiftPM cannot carry it into the build); rename the spec")
        // Only the file's own name counts; a quote in a folder's name is not the plugin's to refuse.
        #expect(SpecFileNaming.refusal(ofSpecAt: "a\"b/Door.machine.yml") == nil)
        #expect(SpecFileNaming.refusal(ofSpecAt: "A.machine.yaml.machine.yml") == nil)
        #expect(SpecFileNaming.refusal(ofSpecAt: "x.machine.yml") == nil)
    }

    @Test("E23: each spec of a target gets every other one as a --child, in order")
    func everyOtherSpecIsAChild() {
        let specs = ["S/A.machine.yml", "S/B.machine.yml", "T/C.machine.yaml"]
        #expect(SpecFileNaming.childSpecs(of: "S/B.machine.yml", in: specs) == ["S/A.machine.yml", "T/C.machine.yaml"])
        #expect(SpecFileNaming.childArguments(of: "S/A.machine.yml", in: specs) == ["--child", "S/B.machine.yml", "--child", "T/C.machine.yaml"])
        #expect(SpecFileNaming.childArguments(of: "S/A.machine.yml", in: ["S/A.machine.yml"]) == [])
    }

    @Test func refusedSpecsDoNotCollide() {
        #expect(SpecFileNaming.collisions(["a/.machine.yml", "b/.machine.yml"]).isEmpty)
    }

    @Test func aLaterSpecWithTheSameOutputCollidesWithTheFirst() {
        let collisions = SpecFileNaming.collisions(["a/Door.machine.yml", "b/Door.machine.yaml", "c/Lamp.machine.yml", "d/Door.machine.yml"])
        #expect(collisions.map(\.spec) == ["b/Door.machine.yaml", "d/Door.machine.yml"])
        #expect(collisions.allSatisfy { $0.earlier == "a/Door.machine.yml" && $0.output == "Door.machine.swift" })
    }
}
