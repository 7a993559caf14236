import ArgumentParser
import Foundation

/// `stateloop inspect [--port P] [--host H] [SPEC…]`: runs `stateloop-inspect`, the inspector's
/// web server, found beside this executable (git's external subcommands work the same way), so
/// that `stateloop`, which the build plugin compiles into every user build, links no web server
/// (Docs/Inspector.md I37).
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch running machines in the browser (runs stateloop-inspect).",
        discussion: """
            Serves a page at http://127.0.0.1:4567/?token=… (--port, --host; it prints the address, \
            with a token drawn afresh each run, which the page needs): every machine attached to the \
            inspector, with its diagram, its active states, a timeline of its steps with state \
            diffs, time travel, and steps exported as a MachineTest. The server is the separate \
            executable stateloop-inspect, which must lie beside stateloop: build both with \
            `swift build --traits Inspector --product stateloop-inspect`. Every option is passed on to it \
            (`stateloop-inspect --help` lists them).
            """
    )

    @Argument(parsing: .allUnrecognized, help: "The options and specs for stateloop-inspect.")
    var arguments: [String] = []

    func run() throws {
        let server = Self.serverPath()
        guard FileManager.default.isExecutableFile(atPath: server) else {
            Console.printError("""
                error: stateloop inspect runs stateloop-inspect, and there is none beside stateloop (\(server)). \
                Build it: `swift build --traits Inspector --product stateloop-inspect` in the \
                StateLoop package (its web server needs the Inspector trait).
                """)
            throw ExitCode.usageOrIO
        }
        // Replaces this process, so the server gets the terminal and its signals (Ctrl-C stops it).
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        Console.printError("error: cannot run \(server): \(String(cString: strerror(errno)))")
        throw ExitCode.usageOrIO
    }

    /// `stateloop-inspect` in the folder of this executable.
    static func serverPath() -> String {
        let me = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return me.resolvingSymlinksInPath().deletingLastPathComponent().appending(path: "stateloop-inspect").path
    }
}
