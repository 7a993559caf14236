// Docs/Effects.md E23: a spec may run as a child machine any spec on the command line, passed with
// --child, or lying in its folder; the others are unknown, at the `machine:` value.
import Foundation
import Testing

@Suite struct ChildSpecTests {
    static let parent = """
        machine: Parent
        events:
          go: {}
          done: {from: effects}
        initial: idle
        states:
          idle:
            on: {go: running}
          running:
            on: {done: idle}
            ignore: [go]
        effects:
          work:
            in: [running]
            machine: Worker
            onDone: {finished: done}

        """

    static let worker = """
        machine: Worker
        events:
          stop: {}
        initial: working
        states:
          working:
            on: {stop: finished}
          finished:
            type: final

        """

    /// A folder with `parent/Parent.machine.yml`, and `child/Worker.machine.yml` beside it.
    private func folder() throws -> URL {
        let directory = try StateLoopTool.temporaryDirectory()
        for (path, text) in [("parent/Parent.machine.yml", Self.parent), ("child/Worker.machine.yml", Self.worker)] {
            try FileManager.default.createDirectory(at: directory.appending(path: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: directory.appending(path: path))
        }
        return directory
    }

    @Test("E23: a machine that is on the command line, in --child or in the spec's folder is unknown otherwise")
    func anUnknownChildFailsAtMachine() throws {
        let result = try StateLoopTool.run(["check", "parent/Parent.machine.yml"], in: try folder())
        #expect(result.status == 1)
        #expect(result.stderr == """
            parent/Parent.machine.yml:15:14: error: effect 'work' runs machine 'Worker', but no spec of this target declares 'machine: Worker' (fix: add its spec to the target; for stateloop, name it on the command line, pass it with --child, or put it in this spec's folder)
            checked 1 spec: 1 error, no warnings

            """)
    }

    @Test("E23: check knows the children named on its command line")
    func checkKnowsTheSpecsOnItsCommandLine() throws {
        let result = try StateLoopTool.run(["check", "parent/Parent.machine.yml", "child/Worker.machine.yml"], in: try folder())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "checked 2 specs: no errors, no warnings\n")
    }

    @Test("E23: check and diagram know the specs of the spec's folder, and skip the broken ones")
    func theSpecsFolderIsTheLibrary() throws {
        let directory = try folder()
        try FileManager.default.moveItem(at: directory.appending(path: "child/Worker.machine.yml"), to: directory.appending(path: "parent/Worker.machine.yml"))
        try Data("machine: [".utf8).write(to: directory.appending(path: "parent/Broken.machine.yml"))
        #expect(mkfifo(directory.appending(path: "parent/Pipe.machine.yml").path, 0o600) == 0)  // never read: it would wait for a writer
        let check = try StateLoopTool.run(["check", "parent/Parent.machine.yml"], in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr == "checked 1 spec: no errors, no warnings\n")
        let diagram = try StateLoopTool.run(["diagram", "parent/Parent.machine.yml", "--format", "mermaid"], in: directory)
        #expect(diagram.status == 0, "\(diagram.stderr)")
    }

    @Test("E23: generate --child knows a child without generating it")
    func generateTakesChildren() throws {
        let directory = try folder()
        let unknown = try StateLoopTool.run(["generate", "parent/Parent.machine.yml", "--output", "out"], in: directory)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("parent/Parent.machine.yml:15:14: error: effect 'work' runs machine 'Worker'"))

        let result = try StateLoopTool.run(["generate", "parent/Parent.machine.yml", "--child", "child/Worker.machine.yml", "--output", "out"], in: directory)
        #expect(!result.stderr.contains(": error: "), "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending(path: "out").path) == ["Parent.machine.swift"])

        let missing = try StateLoopTool.run(["generate", "parent/Parent.machine.yml", "--child", "child/None.machine.yml", "--output", "out"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr == "child/None.machine.yml: error: cannot read the spec: no such file\n")
    }

    @Test("E57: two specs of one machine name fail at the later one's machine:, in every run that reads both")
    func twoSpecsOfOneMachineNameFailAtTheLaterOne() throws {
        let directory = try folder()
        try Data(Self.worker.utf8).write(to: directory.appending(path: "child/Again.machine.yml"))
        let expected = """
            child/Worker.machine.yml:1:10: error: machine 'Worker' is declared by another spec read with this one too: both would generate the type 'Worker', and a parent would run either (fix: rename one of the machines)
            child/Again.machine.yml:1:10: note: 'Worker' is also declared here

            """
        // As the plugin runs them: each spec of the target with every other one as --child.
        for (spec, child) in [("child/Again.machine.yml", "child/Worker.machine.yml"), ("child/Worker.machine.yml", "child/Again.machine.yml")] {
            let generate = try StateLoopTool.run(["generate", spec, "--child", child, "--child", "parent/Parent.machine.yml", "--output", "out"], in: directory)
            #expect(generate.status == 1)
            #expect(generate.stderr == expected)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "out").path))
        let check = try StateLoopTool.run(["check", "child/Worker.machine.yml", "child/Again.machine.yml"], in: directory)
        #expect(check.status == 1)
        #expect(check.stderr == expected + "checked 2 specs: 1 error, no warnings\n")
        // A copy lying in the spec's folder is not part of the run: the folder is a convenience.
        let alone = try StateLoopTool.run(["check", "child/Worker.machine.yml"], in: directory)
        #expect(alone.status == 0, "\(alone.stderr)")
    }
}
