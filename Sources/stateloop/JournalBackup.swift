import ArgumentParser
import StateLoopDurable

/// `stateloop journal backup DB OUT`: a copy of a journal that holds every commit, its -wal file's
/// too (Docs/Durability.md D121), through SQLite's `VACUUM INTO`.
struct JournalBackup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a journal file, with the commits of its -wal file, into one new file.",
        discussion: """
            A journal in WAL mode is two files: DB and DB-wal, which holds the latest commits until \\
            SQLite copies them into DB. Copying DB alone (cp, a file sync) loses them. This writes \\
            one consistent file OUT with every commit, read in one transaction, also while an app \\
            writes the journal. OUT must not exist. Exit status: 0 ok, 2 a file that is not a \\
            journal, or OUT exists.
            """
    )

    @Argument(help: "The journal file (the path given to SQLiteJournalStore).")
    var database: String

    @Argument(help: "The new file to write the copy to.")
    var output: String

    func run() throws {
        do {
            try SQLiteJournalFile(path: database).backup(to: output)
        } catch {
            Console.printError("error: \(error)")
            throw ExitCode.usageOrIO
        }
        print("backup \(output): every commit of \(database)")
    }
}
