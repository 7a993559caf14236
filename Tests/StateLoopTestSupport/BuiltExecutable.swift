import Foundation

/// The executable `name` of this build's products folder: the test binary's folder, or a parent
/// of it when the tests run from inside a bundle (`stateloop`, `stateloop-demo`, the crash helpers).
public func builtExecutable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appending(path: name).path), directory.path != "/" {
        directory.deleteLastPathComponent()
    }
    return directory.appending(path: name)
}

/// Runs `executable` with `arguments` to its end: its exit status and standard output (standard
/// error is inherited).
public func runToEnd(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
