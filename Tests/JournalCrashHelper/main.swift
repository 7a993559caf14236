// journal-crash-helper DB BATCH [MACHINE]: appends batches of BATCH records to the journal of
// MACHINE ("crash" unless given) in the SQLite file DB, forever, and prints `committed N` (N, the last sequence number
// of the batch) once each batch's append has returned. The crash tests (D7, D13) kill it with SIGKILL.
// Record n's event is the 8 bytes of n, little-endian, and its state the same bytes reversed.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StateLoopDurable

let arguments = CommandLine.arguments
/// Writes `line` to file descriptor `fd` at once, unbuffered, so a kill loses no reported commit.
func say(_ line: String, to fd: Int32 = 1) {
    _ = line.withCString { write(fd, $0, strlen($0)) }
}

// `--open-as-nobody DB`: opens DB as the user nobody when run as root (D119's test: a file root
// cannot be refused), prints `opened`, or the error on standard error with status 1.
if arguments.count == 3, arguments[1] == "--open-as-nobody" {
    if getuid() == 0, setgid(65534) != 0 || setuid(65534) != 0 {
        say("journal-crash-helper: cannot become nobody\n", to: 2)
        exit(2)
    }
    do {
        _ = try SQLiteJournalStore(path: arguments[2])
        say("opened\n")
        exit(0)
    } catch {
        say("\(error)\n", to: 2)
        exit(1)
    }
}
guard (3...4).contains(arguments.count), let batch = Int64(arguments[2]), batch > 0 else {
    say("usage: journal-crash-helper DB BATCH [MACHINE]\n", to: 2)
    exit(2)
}
let machine = arguments.count == 4 ? arguments[3] : "crash"

/// Opens the store at `path`. Two helpers start on one new file (D13): the second may wait to
/// create the schema while the first appends in its tight loop, past the 5 s; it opens again (a
/// current file opens without the write lock, D126).
func openStore(_ path: String) throws(JournalError) -> SQLiteJournalStore {
    while true {
        do {
            return try SQLiteJournalStore(path: path, durability: .processCrash)
        } catch .database(let code, _) where code & 0xFF == 5 {  // SQLITE_BUSY
            continue
        }
    }
}
// An error is said on standard error with status 1, for the test to show (a trap would make the
// test wait for the runtime's backtrace, minutes on a loaded machine, and say nothing).
do {
    let store = try openStore(arguments[1])
    var last = try store.lastSequence(of: machine) ?? 0
    while true {
        let records = (last + 1...last + batch).map { sequence in
            let bytes = withUnsafeBytes(of: sequence.littleEndian, Array.init)
            return JournalRecord(sequence: sequence, event: bytes, stateAfter: bytes.reversed())
        }
        do {
            try store.append(records, to: machine)
        } catch JournalError.database(let code, _) where code & 0xFF == 5 {  // SQLITE_BUSY
            // The other process held the write lock for all of D13's 5 s (a loaded machine, two
            // tight loops): nothing was written, so the batch is tried again, as an app may.
            continue
        }
        last += batch
        say("committed \(last)\n")
    }
} catch {
    say("journal-crash-helper: \(error)\n", to: 2)
    exit(1)
}
