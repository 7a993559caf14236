// JournalLayouts: which layout reads which entry of a journal file (Docs/Durability.md D84, D90,
// D108): the spec's own for its version, its lock's for an older one, and a child machine's
// (under `"<parent id>/<effect>@<step>"`, D100) its own spec's. `stateloop journal --spec` and
// `stateloop inspect --journal` read the file through it.
import StateLoopCodegen
import StateLoopSpec

/// The journal layouts of a persisted spec, of its lock's older versions and of its children.
public struct JournalLayouts: Sendable {
    /// The layout of the spec's current version.
    public let machine: JournalLayout
    /// The layouts of the older versions the spec's lock holds, by version (D90).
    public let locked: [Int: JournalLayout]
    /// The layouts of the child machines its effects run, by machine name (D84).
    public let children: [String: JournalLayout]
    /// The child machine that each effect runs, by effect name.
    public let childOfEffect: [String: String]
    /// The file each machine's spec was read from, by machine name: the spec and its children.
    public let specFiles: [String: String]
    /// The `redact: true` context fields of the spec and of its children, by name: what no text
    /// read from the journal shows (Docs/Inspector.md I70, I71).
    public let redacted: Set<String>

    /// The layouts of `checked`, read from `path`; `nil` when the machine does not persist.
    /// `loadChild` checks the spec of a child machine, or gives `nil` when it has errors (a
    /// persisted machine's children persist, D21: one that failed its checks stays unread).
    public init?<Failure: Error>(
        _ checked: CheckedMachineSpec, path: String, loadChild: (MachineSpec) throws(Failure) -> CheckedMachineSpec?
    ) throws(Failure) {
        guard let layout = MachineContextBuilder.journalLayout(checked) else { return nil }
        var children: [String: JournalLayout] = [:]
        var specFiles = [checked.name.value: path]
        var redacted = Self.redacted(in: checked.spec)
        for (name, child) in checked.children {
            // A child's secrets whether or not its spec checks: its events reach the parent's journal.
            redacted.formUnion(Self.redacted(in: child))
            if let spec = try loadChild(child), let childLayout = MachineContextBuilder.journalLayout(spec) {
                children[name] = childLayout
                specFiles[name] = child.file
            }
        }
        var locked: [Int: JournalLayout] = [:]
        for version in checked.lock?.versions ?? [] where version.number < layout.version {
            locked[version.number] = version.layout
        }
        self.machine = layout
        self.locked = locked
        self.children = children
        self.childOfEffect = Dictionary(
            uniqueKeysWithValues: checked.spec.effects.compactMap { effect in effect.child.map { (effect.name.value, $0.machine.value) } })
        self.specFiles = specFiles
        self.redacted = redacted
    }

    private static func redacted(in spec: MachineSpec) -> Set<String> {
        Set(spec.context.filter(\.redact).map(\.name.value))
    }

    /// The text reader of entries written with `layout`, which redacts (`redacted`).
    public func values(_ layout: JournalLayout) -> JournalValueText {
        JournalValueText(layout: layout, children: children, redacting: redacted)
    }

    /// The layout that reads machine `id`: the spec's, or for a child of its machine
    /// (`"<parent id>/<effect>@<step>"`, D100) the child's; `nil` for a deeper descendant.
    public func layout(of id: String) -> JournalLayout? {
        let path = id.split(separator: "/", omittingEmptySubsequences: false)
        guard path.count == 2, let at = path[1].lastIndex(of: "@") else { return path.count == 1 ? machine : nil }
        return childOfEffect[String(path[1][..<at])].flatMap { children[$0] }
    }

    /// The layout that reads the entries of machine `id` written at `version`: its machine's for
    /// that version, the lock's of an older version of the spec's machine (the lock read is the
    /// spec's: a child's older versions have none), or `nil`.
    public func layout(of id: String, version: Int) -> JournalLayout? {
        guard let layout = layout(of: id) else { return nil }
        if version == layout.version { return layout }
        return layout.machine == machine.machine ? locked[version] : nil
    }
}
