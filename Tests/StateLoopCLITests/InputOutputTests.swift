// The CLI's file system failures, each said in words at the path it concerns (exit status 2), and
// the files it reads and writes when they are not plain files: pipes, FIFOs, standard input.
import Foundation
import Testing

@Suite struct InputOutputTests {
    static let counter = StateLoopTool.repositoryRoot.appending(path: "Specs/Counter.machine.yml")

    @Test func aSpecIsReadFromStandardInputAPipeOrAFIFO() throws {
        let stdin = try StateLoopTool.run(["check", "/dev/stdin"], standardInput: FileHandle(forReadingFrom: Self.counter))
        #expect(stdin.status == 0, "\(stdin.stderr)")
        #expect(stdin.stderr == "checked 1 spec: no errors, no warnings\n")

        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(contentsOf: Self.counter))  // fits the pipe's buffer
        try pipe.fileHandleForWriting.close()
        let piped = try StateLoopTool.run(["check", "--verbose", "/dev/stdin"], standardInput: pipe)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr == "checked 1 spec: no errors, no warnings\n")

        let directory = try StateLoopTool.temporaryDirectory()
        let fifo = directory.appending(path: "Counter.machine.yml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // The writer blocks until the tool opens the FIFO for reading.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat \"$0\" > \"$1\"", Self.counter.path, fifo.path]
        try writer.run()
        let fromFIFO = try StateLoopTool.run(["generate", fifo.path, "--output", directory.appending(path: "out").path])
        writer.waitUntilExit()
        #expect(fromFIFO.status == 0, "\(fromFIFO.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appending(path: "out/Counter.machine.swift").path))
    }

    @Test func aSpecThatNeverEndsIsRefusedInWords() throws {
        let result = try StateLoopTool.run(["check", "/dev/zero"])
        #expect(result.status == 2)
        #expect(result.stderr == "/dev/zero: error: cannot read the spec: it is not a regular file and goes on past 64 MiB\n")
    }

    /// An output folder, file or template folder whose path runs through a file.
    @Test func anOutputUnderAFileIsReportedInWords() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        try Data("not a folder".utf8).write(to: directory.appending(path: "file"))
        let generate = try StateLoopTool.run(["generate", Self.counter.path, "--output", "file/out"], in: directory)
        #expect(generate.status == 2)
        #expect(generate.stderr == "file/out: error: cannot write the generated Swift: file is a file, not a folder\n")

        let diagram = try StateLoopTool.run(["diagram", Self.counter.path, "--format", "dot", "--output", "file/Counter.dot"], in: directory)
        #expect(diagram.status == 2)
        #expect(diagram.stderr == "file/Counter.dot: error: cannot write the diagram: file is a file, not a folder\n")

        let templates = try StateLoopTool.run(["templates", "--output", "file/templates"], in: directory)
        #expect(templates.status == 2)
        #expect(templates.stderr == "file/templates: error: cannot write the templates: file is a file, not a folder\n")

        let readTemplates = try StateLoopTool.run(["generate", Self.counter.path, "--output", "out", "--templates", "file"], in: directory)
        #expect(readTemplates.status == 2)
        #expect(readTemplates.stderr == "file: error: the templates folder is a file, not a folder (fix: pass a folder of *.mustache files, as `stateloop templates` writes)\n")
    }

    @Test func anUnwritableOutputFolderIsReportedInWords() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let output = directory.appending(path: "out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        // A folder in place of the output file: rename(2) cannot replace it.
        try FileManager.default.createDirectory(at: output.appending(path: "Counter.machine.swift"), withIntermediateDirectories: true)
        let result = try StateLoopTool.run(["generate", Self.counter.path, "--output", "out"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr == "out/Counter.machine.swift: error: cannot write the generated Swift: it is a folder\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["Counter.machine.swift"], "a temporary file was left behind")
    }

    /// `generate` writes a temporary file and renames it over the output. Killed in between (here
    /// by the file size limit, which stops it in the middle of writing), it leaves the temporary
    /// file; the next run into that folder removes it.
    @Test func aKilledGenerateLeavesNoTemporaryFileTheNextRunDoesNotRemove() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let signal = try Self.runWithFileSizeLimit(
            StateLoopTool.executable.path, ["generate", Self.counter.path, "--output", directory.path])
        #expect(signal == SIGXFSZ, "the size limit did not stop generate")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.count == 1 && left[0].hasSuffix(".tmp"), "\(left)")

        let next = try StateLoopTool.run(["generate", Self.counter.path, "--output", directory.path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Counter.machine.swift"])
    }

    /// Runs `program ARGUMENTS` with files limited to 512 bytes and SIGXFSZ at its default action
    /// and unblocked (the test runner's worker threads block signals, and a child inherits the
    /// mask), so that the program is killed by the write that crosses the limit; returns the
    /// signal that ended it.
    static func runWithFileSizeLimit(_ program: String, _ arguments: [String]) throws -> Int32? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGXFSZ)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ["/bin/sh", "-c", "ulimit -f 1; exec \"$0\" \"$@\"", program] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFSIGNALED and WTERMSIG, which Swift does not import.
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }
}
