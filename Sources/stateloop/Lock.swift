import ArgumentParser
import Foundation
import StateLoopCodegen
import StateLoopSpec

/// `stateloop lock SPEC...`: records the persisted shape of each spec's current version in the
/// lock beside it (Docs/Durability.md D50, D51).
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the persisted shape of each spec's version before shipping it.",
        discussion: """
            For each spec that persists (persist: {version: N}), adds version N with its persisted \
            shape (states, context fields, events, one-shot runs, with their kinds and types) and \
            the layout of its journal coding (what a later version reads its journals with) to \
            the lock file beside the spec (Order.machine.yml -> Order.machine.lock), creating it. \
            Commit the lock with the spec: from then on, check and every build fail at the YAML \
            line when the spec changes what version N saved without a migration. A version that \
            is locked already is left as it is (one locked without its layout, by an older \
            stateloop, gets it). Checks each spec first, as check does, and locks \
            nothing of a spec with an error or one that does not persist (exit status 1).
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    func run() throws {
        var failed = false
        let read = try ChildSpecs(specs: specs)
        Console.report(read.duplicateNames)
        failed = !read.duplicateNames.isEmpty
        for spec in specs {
            let lockInput = try Console.readLock(besideSpec: spec)
            let result = GeneratorPipeline.load(contents: read.contents(of: spec), path: spec, library: read.library, lock: lockInput)
            Console.report(result.diagnostics)
            guard let checked = result.spec, let lock = LockFile.read(lockInput.contents, path: lockInput.path).lock else {
                failed = true
                continue
            }
            guard let persist = checked.spec.persist else {
                Console.report([.error(
                    "machine '\(checked.spec.name.value)' does not persist, so it has nothing to lock", at: SourceLocation(file: spec, line: 1, column: 1),
                    fixIt: "add 'persist: true' to the spec to journal it (Docs/Durability.md)")])
                failed = true
                continue
            }
            let name = SpecFileNaming.fileName(ofPath: lockInput.path)
            // The check above refused a changed shape under a locked version (D52); a version
            // locked before layouts were gets its layout (D91).
            if let version = lock.version(persist.version), version.layout != nil {
                Console.printError("\(name): version \(persist.version) is locked already")
                continue
            }
            guard let layout = MachineContextBuilder.journalLayout(checked) else { continue }
            let locked = lock.locking(PersistedShape(checked.spec), layout: layout, as: persist.version)
            do {
                try OutputWriter.writeIfChanged(locked.rendered(specFileName: SpecFileNaming.fileName(ofPath: spec)), to: lockInput.path)
            } catch {
                throw Console.fail("cannot write the lock file", error)
            }
            Console.printError("\(name): locked version \(persist.version)")
        }
        if failed { throw ExitCode.specErrors }
    }
}
