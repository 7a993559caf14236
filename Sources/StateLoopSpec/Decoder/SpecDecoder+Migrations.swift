// The decoding of `persist: migrations:` (Docs/Durability.md D55). Shape only: whether each
// version and name exists is `EvolutionCheck`'s business (D56), since it needs the lock file.

extension SpecDecoder.Keys {
    /// Keys of one migration.
    static let migration = ["states", "fields", "events", "runs"]
}

extension DecodingSession {
    /// `migrations: {K: {states: {old: new}, fields: {old: new}, events: {old: new}, runs: {old: new}}}`.
    mutating func migrations(_ node: YAMLNode) -> [Migration] {
        guard let entries = mapping(
            node, expected: "a mapping from locked versions to migrations",
            fixIt: "write 'migrations: {1: {states: {oldState: newState}}}', keyed by the version a migration reads", allowEmpty: true)
        else { return [] }
        return entries.compactMap { entry in
            guard let number = Int(entry.key.value), number >= 1, String(number) == entry.key.value else {
                error(
                    "'\(entry.key.value)' is not a version: a migration is keyed by the locked version it reads", at: entry.key.location,
                    fixIt: "write the version as a whole number of 1 or more, as in 'migrations: {1: {states: {oldState: newState}}}'")
                return nil
            }
            guard let body = mapping(
                entry.value, expected: "the migration from version \(number) as a mapping",
                fixIt: "write '\(number): {states: {old: new}, fields: {old: new}, events: {old: new}, runs: {old: new}}'", allowEmpty: true)
            else { return nil }
            var migration = Migration(from: Located(number, at: entry.key.location))
            for item in known(body, keys: SpecDecoder.Keys.migration, in: "in a migration") {
                let renamings = renamings(item.value, of: item.key.value)
                switch item.key.value {
                case "states": migration.states = renamings
                case "fields": migration.fields = renamings
                case "events": migration.events = renamings
                default: migration.runs = renamings
                }
            }
            return migration
        }
    }

    /// `{old: new}`, where `null` (or `~`, or nothing) says the old item is dropped.
    private mutating func renamings(_ node: YAMLNode, of section: String) -> [Renaming] {
        let fixIt = "write '\(section): {oldName: newName}'\(section == "states" ? "" : ", or 'oldName: null' to drop it")"
        guard let entries = mapping(node, expected: "a mapping from old names to new ones", fixIt: fixIt, allowEmpty: true) else { return [] }
        return entries.compactMap { entry in
            if let scalar = entry.value.scalar, scalar.style == .plain, ["null", "~", ""].contains(scalar.value) {
                return Renaming(from: entry.key.located, to: nil)
            }
            return text(entry.value, expected: "a name or null", fixIt: fixIt).map { Renaming(from: entry.key.located, to: $0) }
        }
    }
}
