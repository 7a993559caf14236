import Testing
@testable import StateLoopSpec

/// Spec evolution (Docs/Durability.md D50–D57): the lock file, and the check that a spec reads
/// every version its lock holds, each with the exact printed diagnostic at its line and column.
@Suite struct EvolutionCheckTests {
    /// Version 1 of a door, as shipped: line 12 is `states:`, 13 `closed:`, 19 `locked:`.
    static let version1 = """
        machine: Door
        persist: true
        context:
          openings: {type: Int, default: "0"}
          code: {type: Int?, default: nil}
        events:
          open: {}
          close: {}
          lock: {code: Int}
          unlock: {code: Int}
        initial: closed
        states:
          closed:
            on: {open: opened, lock: {target: locked, set: {code: event.code}}}
            ignore: [close, unlock]
          opened:
            on: {close: closed}
            ignore: [open, lock, unlock]
          locked:
            on:
              unlock:
                - {guard: "event.code == code", target: closed}
                - ignore
            ignore: [open, close, lock]

        """

    /// The lock of version 1, as `stateloop lock` writes it.
    static func lock(_ spec: String = version1, versions: [Int] = [1]) throws -> String {
        let shape = PersistedShape(try loadedSpec(spec))
        let lock = versions.reduce(LockFile(path: "test.machine.lock")) { $0.locking(shape, as: $1) }
        return lock.rendered(specFileName: "test.machine.yml")
    }

    /// The printed diagnostics of `yaml` checked against the lock text `lock`.
    func diagnostics(_ yaml: String, lock: String) -> [String] {
        SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml", lock: LockInput(path: "test.machine.lock", contents: Array(lock.utf8)))
            .diagnostics.map(\.description)
    }

    /// Version 1 with `replacements` applied, in order, each exactly once.
    func edited(_ replacements: [(String, String)], of spec: String = version1) throws -> String {
        try replacements.reduce(spec) { text, pair in
            try #require(text.contains(pair.0), "\(pair.0) is not in the spec")
            return text.replacingOccurrences(of: pair.0, with: pair.1)
        }
    }

    /// Version 2: `locked` renamed `bolted`, and a new field.
    func version2(migration: String?) throws -> String {
        try edited([
            ("persist: true\n", "persist:\n  version: 2\n" + (migration.map { "  migrations:\n    1: \($0)\n" } ?? "")),
            ("  code: {type: Int?, default: nil}\n", "  code: {type: Int?, default: nil}\n  attempts: {type: Int, default: \"0\"}\n"),
            ("target: locked", "target: bolted"),
            ("  locked:\n", "  bolted:\n"),
        ])
    }

    @Test("D50: the lock holds each version's states, fields, events and runs, and reads back as written")
    func d50LockRoundTrip() throws {
        let spec = """
            machine: Player
            persist: {version: 3}
            context:
              tracks: {type: "[String: Int]", default: "[:]"}
              title: {type: String?, default: nil}
            events:
              play: {}
              seek: {to: Duration, result: "Result<Int,  Error>"}
            initial: stopped
            states:
              stopped:
                on: {play: playing}
                ignore: [seek]
              playing:
                type: parallel
                states:
                  audio:
                    initial: loud
                    states:
                      loud: {on: {seek: quiet}}
                      quiet: {}
                      back: {type: history, history: deep}
                  video: {initial: shown, states: {shown: {}}}
                on: {play: done}
                ignore: [seek]
              done:
                type: final
                entry: [{run: notify, request: title}, {run: ping}]
            effects:
              notify: {request: {type: String?}}
              ping: {}
            """
        let text = try Self.lock(spec, versions: [3])
        #expect(text == """
            # The persisted shape of each shipped version of test.machine.yml, written by `stateloop lock`.
            # Commit it with the spec and do not edit it: a newer version of the spec must read what these
            # versions saved, or the build fails (Docs/Durability.md).
            versions:
              3:
                states:
                  stopped: leaf
                  playing:
                    kind: parallel
                    states:
                      audio:
                        kind: composite
                        states:
                          loud: leaf
                          quiet: leaf
                          back: deep history
                      video:
                        kind: composite
                        states:
                          shown: leaf
                  done: final
                context:
                  tracks: "[String:Int]"
                  title: String?
                events:
                  play: {}
                  seek: {to: Duration, result: "Result<Int,Error>"}
                runs:
                  notify: {request: String?}
                  ping: {}

            """)
        let read = LockFile.read(Array(text.utf8), path: "test.machine.lock")
        #expect(read.diagnostics.map(\.description) == [])
        #expect(read.lock?.versions.map(\.number) == [3])
        #expect(read.lock?.versions.map(\.shape) == [PersistedShape(try loadedSpec(spec))])
    }

    @Test("D54: version 2 renames a state without a migration: the error stands at the new state's line")
    func d54RenamedStateWithoutMigration() throws {
        #expect(diagnostics(try version2(migration: nil), lock: try Self.lock()) == [
            "test.machine.yml:21:3: error: state 'locked' of version 1 is gone, and 'bolted' took its place (fix: if 'bolted' is 'locked' renamed, add 'locked: bolted' to persist.migrations.1.states; otherwise map 'locked' there to the state its journals resume in)",
        ])
    }

    @Test("D54, D55: with its migration, version 2 reads version 1; a new field needs none")
    func d55RenamedStateWithMigration() throws {
        #expect(diagnostics(try version2(migration: "{states: {locked: bolted}}"), lock: try Self.lock()) == [])
    }

    @Test("D54: a removed state with nothing in its place is reported at 'states:', a nested one at its parent")
    func d54RemovedStatesAtTheirParent() throws {
        let removed = try edited([
            ("persist: true", "persist: {version: 2}"),
            ("lock: {target: locked, set: {code: event.code}}", "lock: {set: {code: event.code}}"),
            ("  locked:\n    on:\n      unlock:\n        - {guard: \"event.code == code\", target: closed}\n        - ignore\n    ignore: [open, close, lock]\n", ""),
        ])
        #expect(diagnostics(removed, lock: try Self.lock()) == [
            "test.machine.yml:10:3: warning: no state handles event 'unlock', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:12:1: error: state 'locked' of version 1 is gone (fix: add 'locked: <state>' to persist.migrations.1.states, naming the state a journal saved in 'locked' resumes in)",
        ])

        // Version 2 nests two states under `opened`; version 3 drops one of them.
        let nested = try edited([
            ("persist: true", "persist: {version: 2}"),
            ("    on: {close: closed}\n    ignore: [open, lock, unlock]\n", "    on: {close: closed}\n    ignore: [open, lock, unlock]\n    initial: wide\n    states:\n      wide: {}\n      ajar: {}\n"),
        ])
        let lock2 = try Self.lock(nested, versions: [2])
        let dropped = try edited([("persist: {version: 2}", "persist: {version: 3}"), ("      ajar: {}\n", "")], of: nested)
        #expect(diagnostics(dropped, lock: lock2) == [
            "test.machine.yml:16:3: error: state 'ajar' of version 2 is gone (fix: add 'ajar: <state>' to persist.migrations.2.states, naming the state a journal saved in 'ajar' resumes in)",
        ])
    }

    @Test("D54: a changed kind, field type or payload is reported at the item; a removed field or event at its key")
    func d54ChangedItems() throws {
        let changed = try edited([
            ("persist: true", "persist: {version: 2}"),
            ("  openings: {type: Int, default: \"0\"}\n", "  openings: {type: Double, default: \"0\"}\n"),
            ("  code: {type: Int?, default: nil}\n", ""),
            ("lock: {target: locked, set: {code: event.code}}", "lock: locked"),
            ("  lock: {code: Int}\n", "  lock: {code: String}\n"),
            ("- {guard: \"event.code == code\", target: closed}", "- {guard: \"event.code > 0\", target: closed}"),
            ("  close: {}\n", ""),
            ("    ignore: [close, unlock]\n", "    ignore: [unlock]\n"),
            ("    on: {close: closed}\n    ignore: [open, lock, unlock]\n", "    on: {open: closed}\n    ignore: [lock, unlock]\n"),
            ("    ignore: [open, close, lock]\n", "    ignore: [open, lock]\n    initial: bolted\n    states:\n      bolted: {}\n"),
        ])
        #expect(diagnostics(changed, lock: try Self.lock()) == [
            "test.machine.yml:3:1: error: context field 'code' of version 1 is gone (fix: add 'code: null' to persist.migrations.1.fields to drop the saved value, or 'code: <field>' if it was renamed)",
            "test.machine.yml:4:20: error: context field 'openings' was 'Int' in version 1 and is 'Double' now (fix: keep 'Int', or add 'openings: null' to persist.migrations.1.fields: the saved value is dropped and 'openings' starts at its default)",
            "test.machine.yml:5:1: error: event 'close' of version 1 is gone (fix: add 'close: null' to persist.migrations.1.events to drop recorded 'close' events, or 'close: <event>' if it was renamed)",
            "test.machine.yml:7:3: error: event 'lock' had payload {code: Int} in version 1 and has {code: String} now (fix: keep its payload, or add 'lock: null' to persist.migrations.1.events to drop recorded 'lock' events)",
            "test.machine.yml:17:3: error: state 'locked' was a leaf in version 1 and is a composite state now (fix: add 'locked: locked' to persist.migrations.1.states to resume a saved 'locked' in the state as it is now, or map it to another state)",
        ])
        let migrated = try edited([("persist: {version: 2}", "persist: {version: 2, migrations: {1: {states: {locked: locked}, fields: {code: null, openings: null}, events: {close: null, lock: null}}}}")], of: changed)
        #expect(diagnostics(migrated, lock: try Self.lock()) == [])
    }

    @Test("D52: the latest locked version with another shape, or a version below it, fails at the version")
    func d52LockedVersionsDoNotChange() throws {
        let added = try edited([("  code: {type: Int?, default: nil}\n", "  code: {type: Int?, default: nil}\n  attempts: {type: Int, default: \"0\"}\n")])
        #expect(diagnostics(added, lock: try Self.lock()) == [
            "test.machine.yml:2:10: error: version 1 is locked in test.machine.lock with another persisted shape (context field 'attempts' added) (fix: bump persist.version to 2: journals of the shipped version 1 are read through its lock)",
        ])
        let renamed = try edited([("target: locked", "target: bolted"), ("  locked:\n", "  bolted:\n")])
        #expect(diagnostics(renamed, lock: try Self.lock()) == [
            "test.machine.yml:2:10: error: version 1 is locked in test.machine.lock with another persisted shape (state 'bolted' added; state 'locked' removed) (fix: bump persist.version to 2: journals of the shipped version 1 are read through its lock)",
            "test.machine.yml:19:3: error: state 'locked' of version 1 is gone, and 'bolted' took its place (fix: bump persist.version to 2, then if 'bolted' is 'locked' renamed, add 'locked: bolted' to persist.migrations.1.states; otherwise map 'locked' there to the state its journals resume in)",
        ])
        #expect(diagnostics(Self.version1, lock: try Self.lock(versions: [1, 2])) == [
            "test.machine.yml:2:10: error: persist.version 1 is below version 2, the latest locked in test.machine.lock: journals of version 2 may exist (fix: set persist.version to 3 or more)",
        ])
        #expect(diagnostics(Self.version1, lock: try Self.lock()) == [])
    }

    @Test("D53: a lock that is not as `stateloop lock` writes it fails the spec at the lock's line")
    func d53BrokenLock() throws {
        let broken = try Self.lock().replacingOccurrences(of: "      opened: leaf\n", with: "      opened: leef\n")
        let result = SpecLoader.load(contents: Array(Self.version1.utf8), path: "test.machine.yml", lock: LockInput(path: "test.machine.lock", contents: Array(broken.utf8)))
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.lock:8:15: error: 'leef' is not a kind of state: 'leaf', 'composite', 'parallel', 'final', 'shallow history', 'deep history' (fix: \(LockFile.repair))",
        ])
        #expect(result.spec == nil)
        #expect(diagnostics(Self.version1, lock: "versions:\n  one: {}\n") == [
            "test.machine.lock:2:3: error: 'one' is not a version: a version is a whole number of 1 or more (fix: \(LockFile.repair))",
        ])
    }

    @Test("D56: every name of a migration is checked at its line")
    func d56MigrationNames() throws {
        let spec = try version2(migration: "{states: {lockd: bolted, opened: null, closed: shut}, fields: {code: attempts, openings: nope}, events: {lock: unlock}}")
        #expect(diagnostics(spec, lock: try Self.lock()) == [
            "test.machine.yml:5:18: error: version 1 has no state 'lockd' (fix: did you mean 'locked'?)",
            "test.machine.yml:5:33: error: a saved state cannot be dropped: a journal saved in 'opened' must resume somewhere (fix: name the state of the spec that a journal saved in 'opened' resumes in)",
            "test.machine.yml:5:55: error: the spec has no state 'shut' (fix: name one of 'closed', 'opened', 'bolted')",
            "test.machine.yml:5:77: error: context field 'code' has 'Int?' in version 1 and 'attempts' has 'Int' in the spec: what was saved cannot be read as 'attempts' (fix: drop it instead with 'code: null')",
            "test.machine.yml:5:97: error: the spec has no context field 'nope' (fix: name one of 'openings', 'code', 'attempts')",
            // 'bolted' is named by the migration, so it took no one's place: the error is at 'states:'.
            "test.machine.yml:16:1: error: state 'locked' of version 1 is gone (fix: add 'locked: <state>' to persist.migrations.1.states, naming the state a journal saved in 'locked' resumes in)",
        ])
        let keys = try version2(migration: "{}").replacingOccurrences(of: "    1: {}\n", with: "    2: {}\n    7: {}\n")
        #expect(diagnostics(keys, lock: try Self.lock()) == [
            "test.machine.yml:5:5: error: migration 2 reads what version 2 saved, but test.machine.lock locks 1 (fix: key each migration by the locked version it reads: 1)",
            "test.machine.yml:6:5: error: migration 7 reads what version 7 saved, but test.machine.lock locks 1 (fix: key each migration by the locked version it reads: 1)",
            "test.machine.yml:24:3: error: state 'locked' of version 1 is gone, and 'bolted' took its place (fix: if 'bolted' is 'locked' renamed, add 'locked: bolted' to persist.migrations.1.states; otherwise map 'locked' there to the state its journals resume in)",
        ])
    }

    @Test("D55: a migration that is not a mapping of names is an error at its line, with the spelling to use")
    func d55MigrationShapes() throws {
        let spec = try version2(migration: "{sates: {}, states: [locked], fields: {code: [x]}}")
            .replacingOccurrences(of: "  migrations:\n", with: "  migrations:\n    one: {}\n")
        #expect(printedDiagnostics(spec) == [
            "test.machine.yml:5:5: error: 'one' is not a version: a migration is keyed by the locked version it reads (fix: write the version as a whole number of 1 or more, as in 'migrations: {1: {states: {oldState: newState}}}')",
            "test.machine.yml:6:9: error: unknown key 'sates' in a migration (fix: did you mean 'states'?)",
            "test.machine.yml:6:28: error: expected a mapping from old names to new ones, found a list (fix: write 'states: {oldName: newName}')",
            "test.machine.yml:6:53: error: expected a name or null, found a list (fix: write 'fields: {oldName: newName}', or 'oldName: null' to drop it)",
        ])
    }

    @Test("D57: a locked version the next locked version cannot read fails at persist:")
    func d57EveryLockedVersionStaysReadable() throws {
        let version2 = try version2(migration: "{states: {locked: bolted}}")
        let lock = try Self.lock() + (try Self.lock(version2, versions: [2])).split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "  2:" }.joined(separator: "\n")
        let version3 = version2.replacingOccurrences(of: "  version: 2\n", with: "  version: 3\n")
        #expect(diagnostics(version3, lock: lock) == [])
        let forgotten = version3.replacingOccurrences(of: "  migrations:\n    1: {states: {locked: bolted}}\n", with: "")
        #expect(diagnostics(forgotten, lock: lock) == [
            "test.machine.yml:2:1: error: state 'locked' of version 1 is not in version 2, as locked in test.machine.lock, and no migration from version 1 covers it (fix: add 'locked: <state>' to persist.migrations.1.states)",
        ])
    }
}
