// `stateloop lock` and the lock file beside a spec, as `check` and `generate` read it
// (Docs/Durability.md D51, D58): the README tour's door, persisted, at version 1 and then at
// version 2 with its `locked` state renamed `bolted` and a new field.
import Foundation
import Testing

@Suite struct LockTests {
    /// The tour's door at version 1.
    static func version1() throws -> String {
        let door = try String(contentsOf: StateLoopTool.repositoryRoot.appending(path: "Tests/Fixtures/DoorApp/Sources/DoorApp/Door.machine.yml"), encoding: .utf8)
        return door.replacingOccurrences(of: "machine: Door\n", with: "machine: Door\npersist: true\n")
    }

    /// Version 2: `locked` is `bolted` now, `attempts` is new; `migration` is written under
    /// `persist: migrations: 1:` when given.
    static func version2(migration: String?) throws -> String {
        try version1()
            .replacingOccurrences(of: "persist: true\n", with: "persist:\n  version: 2\n" + (migration.map { "  migrations:\n    1: \($0)\n" } ?? ""))
            .replacingOccurrences(of: "  chimes:   {type: \"[String]\", default: \"[]\"}\n", with: "  chimes:   {type: \"[String]\", default: \"[]\"}\n  attempts: {type: Int, default: \"0\"}\n")
            .replacingOccurrences(of: "target: locked", with: "target: bolted")
            .replacingOccurrences(of: "  locked:\n", with: "  bolted:\n")
    }

    /// `path:line:column` of the first occurrence of `text` in `spec`, as the tool prints it.
    static func location(of text: String, in spec: String, path: String = "Door.machine.yml") throws -> String {
        let lines = spec.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) }, "\(text) is not in the spec")
        let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: text)!.lowerBound) + 1
        return "\(path):\(index + 1):\(column)"
    }

    @Test("D51, D52: lock adds the current version, leaves a locked one alone, and refuses a changed one or a spec that does not persist")
    func d51LockAddsTheCurrentVersionOnce() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let spec = directory.appending(path: "Door.machine.yml")
        let lock = directory.appending(path: "Door.machine.lock")
        try Data(try Self.version1().utf8).write(to: spec)

        let first = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "Door.machine.lock: locked version 1\n")
        let locked = try String(contentsOf: lock, encoding: .utf8)
        #expect(locked.contains("""
            versions:
              1:
                states:
                  closed: leaf
                  opened: leaf
                  locked: leaf
                context:
                  openings: Int
                  code: Int?
                  chimes: "[String]"
                events:
                  open: {}
                  close: {}
                  lock: {code: Int}
                  unlock: {code: Int}
                  chimed: {message: String}
                runs: {}

            """), "\(locked)")

        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: lock.path)
        let again = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "Door.machine.lock: version 1 is locked already\n")
        #expect(try FileManager.default.attributesOfItem(atPath: lock.path)[.modificationDate] as? Date == past)

        // D52: a changed shape under the locked version is refused, and the lock stays as it was.
        let changed = try Self.version1().replacingOccurrences(of: "  code:     {type: Int?, default: nil}\n", with: "  code:     {type: String?, default: nil}\n")
        try Data(changed.utf8).write(to: spec)
        let refused = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Door.machine.yml:2:10: error: version 1 is locked in Door.machine.lock with another persisted shape (context field 'code' changed) (fix: bump persist.version to 2"), "\(refused.stderr)")
        #expect(try String(contentsOf: lock, encoding: .utf8) == locked)

        try Data(try Self.version2(migration: "{states: {locked: bolted}}").utf8).write(to: spec)
        let second = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        let both = try String(contentsOf: lock, encoding: .utf8)
        #expect(both.hasPrefix(locked), "version 1 must stay as it was locked")
        #expect(both.contains("\n  2:\n    states:\n      closed: leaf\n      opened: leaf\n      bolted: leaf\n"), "\(both)")
        #expect(both.contains("      attempts: Int\n"), "\(both)")

        try Data(try Self.version1().replacingOccurrences(of: "persist: true\n", with: "").utf8).write(to: directory.appending(path: "Plain.machine.yml"))
        let plain = try StateLoopTool.run(["lock", "Plain.machine.yml"], in: directory)
        #expect(plain.status == 1)
        #expect(plain.stderr == "Plain.machine.yml:1:1: error: machine 'Door' does not persist, so it has nothing to lock (fix: add 'persist: true' to the spec to journal it (Docs/Durability.md))\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "Plain.machine.lock").path))
    }

    /// The issue's case: version 2 renames a persisted state. Without its migration, `check` and
    /// `generate` fail at the renamed state's line, and nothing is written; with it, both pass.
    @Test("D54, D58: check and generate read the lock beside the spec and fail at the renamed state's line")
    func d58CheckAndGenerateReadTheLock() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let spec = directory.appending(path: "Door.machine.yml")
        try Data(try Self.version1().utf8).write(to: spec)
        #expect(try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory).status == 0)

        let unmigrated = try Self.version2(migration: nil)
        try Data(unmigrated.utf8).write(to: spec)
        let error = "\(try Self.location(of: "bolted:", in: unmigrated)): error: state 'locked' of version 1 is gone, and 'bolted' took its place (fix: if 'bolted' is 'locked' renamed, add 'locked: bolted' to persist.migrations.1.states; otherwise map 'locked' there to the state its journals resume in)\n"
        let check = try StateLoopTool.run(["check", "Door.machine.yml"], in: directory)
        #expect(check.status == 1)
        #expect(check.stderr == error + "checked 1 spec: 1 error, no warnings\n")
        let output = directory.appending(path: "out")
        let generate = try StateLoopTool.run(["generate", "Door.machine.yml", "--output", output.path], in: directory)
        #expect(generate.status == 1)
        #expect(generate.stderr == error)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        try Data(try Self.version2(migration: "{states: {locked: bolted}}").utf8).write(to: spec)
        let migrated = try StateLoopTool.run(["check", "Door.machine.yml"], in: directory)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try StateLoopTool.run(["generate", "Door.machine.yml", "--output", output.path], in: directory).status == 0)
    }
}

extension LockTests {
    /// Three edits of the door that change its journal's layout and nothing of its shape: a
    /// `send:` (pending sends in `State`, a `_send` event), a `raise:` and a read of `trigger`.
    static let layoutChanges: [(name: String, old: String, new: String)] = [
        ("a send:", "open: {target: opened, set: {openings: openings + 1}}", "open: {target: opened, set: {openings: openings + 1}, do: [{send: {event: close, delay: 5s}}]}"),
        ("a raise:", "open: {target: opened, set: {openings: openings + 1}}", "open: {target: opened, set: {openings: openings + 1}, do: [{raise: close}]}"),
        ("a read of trigger", "  opened:\n    on:\n", "  opened:\n    entry:\n      - if: \"trigger == .open\"\n        then: [{set: {openings: openings + 1}}]\n    on:\n"),
    ]

    @Test("D124: a send:, a raise: or a read of trigger added at a locked version fails check, lock and generate at persist.version; at the next version they pass", arguments: 0..<3)
    func d124ALayoutChangeAtALockedVersionIsRefused(_ change: Int) throws {
        let (name, old, new) = Self.layoutChanges[change]
        let directory = try StateLoopTool.temporaryDirectory()
        let spec = directory.appending(path: "Door.machine.yml")
        let lock = directory.appending(path: "Door.machine.lock")
        try Data(try Self.version1().utf8).write(to: spec)
        #expect(try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory).status == 0)
        let locked = try String(contentsOf: lock, encoding: .utf8)

        let changed = try Self.version1().replacingOccurrences(of: old, with: new)
        try #require(changed != (try Self.version1()), "\(name): the edit must apply")
        try Data(changed.utf8).write(to: spec)
        let prefix = "Door.machine.yml:2:10: error: version 1 is locked in Door.machine.lock with another journal layout ("
        let fix = "): the journals that version wrote would be misread (fix: bump persist.version to 2: journals of the shipped version 1 are read through its lock)\n"
        for command in [["check", "Door.machine.yml"], ["lock", "Door.machine.yml"], ["generate", "Door.machine.yml", "--output", directory.appending(path: "out").path]] {
            let refused = try StateLoopTool.run(command, in: directory)
            #expect(refused.status == 1, "\(name), \(command[0])")
            #expect(refused.stderr.hasPrefix(prefix) && refused.stderr.contains(fix), "\(name), \(command[0]): \(refused.stderr)")
        }
        #expect(try String(contentsOf: lock, encoding: .utf8) == locked, "the lock stays as it was")
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "out").path))

        // The next version reads version 1's journals through the lock (D92): nothing to migrate.
        try Data(changed.replacingOccurrences(of: "persist: true\n", with: "persist: {version: 2}\n").utf8).write(to: spec)
        let check = try StateLoopTool.run(["check", "Door.machine.yml"], in: directory)
        #expect(check.status == 0, "\(name): \(check.stderr)")
        let second = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(second.status == 0 && second.stderr == "Door.machine.lock: locked version 2\n", "\(name): \(second.stderr)")
    }
    @Test("D91: a version locked without its layout, by an older stateloop, is still read, and lock adds its layout")
    func d91LockAddsTheLayoutOfAVersionLockedWithoutIt() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let spec = directory.appending(path: "Door.machine.yml")
        let lock = directory.appending(path: "Door.machine.lock")
        try Data(try Self.version1().utf8).write(to: spec)
        #expect(try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory).status == 0)
        let full = try String(contentsOf: lock, encoding: .utf8)
        let layout = try #require(full.range(of: "    layout:\n"))
        // The lock as a stateloop before layouts wrote it: checked as before.
        try Data(full[..<layout.lowerBound].utf8).write(to: lock)
        let check = try StateLoopTool.run(["check", "Door.machine.yml"], in: directory)
        #expect(check.status == 0, "\(check.stderr)")

        let relock = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(relock.status == 0, "\(relock.stderr)")
        #expect(relock.stderr == "Door.machine.lock: locked version 1\n")
        #expect(try String(contentsOf: lock, encoding: .utf8) == full)
        let again = try StateLoopTool.run(["lock", "Door.machine.yml"], in: directory)
        #expect(again.stderr == "Door.machine.lock: version 1 is locked already\n")
    }
}
