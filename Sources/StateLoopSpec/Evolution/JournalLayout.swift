// JournalLayout: how the generated journal coding of a persisted machine lays out its values
// (Docs/Durability.md D27, D84, D90). The generator prints the `JournalCodable` conformances from
// this model (MachineContextBuilder+Journal), `stateloop journal` reads a journal's bytes with it,
// so the two cannot disagree on a byte, and the lock keeps it for each shipped version
// (JournalLayout+Lock), so a later build prints the readers of that version from it.

/// The journal layout of a persisted machine: every type its journal coding writes, each an
/// enum (its case number, then the case's payload) or a struct (its stored properties in order).
public struct JournalLayout: Sendable, Equatable {
    /// How one value is written.
    public indirect enum Value: Sendable, Equatable {
        /// A type written in the spec, as written (`[String]`, `Money`), and the alias the
        /// generated code names it by: the journal's own encoding when the type is
        /// `JournalCodable`, else the `Codable` fallback (D23).
        case spec(String, alias: String)
        /// A standard library type the generated code stores for its own bookkeeping: `Int`,
        /// `Bool`, `Duration`.
        case standard(String)
        /// A type of this layout, by its name in ``types``.
        case generated(String)
        /// An event of the child machine named so (`forward:`): its `Event` in that spec's layout.
        case childEvent(String)
        /// An optional: 0, or 1 and the value.
        case optional(Value)
        /// An array: its count, then each element.
        case array(Value)
    }

    /// A stored property of a struct, or a payload field of an enum case (`name` empty when unlabeled).
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: Value

        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// A case of an enum, by its name in the spec, and its payload in order.
    public struct Case: Sendable, Equatable {
        public let name: String
        public let payload: [Field]

        public init(name: String, payload: [Field]) {
            self.name = name
            self.payload = payload
        }
    }

    /// What a type is in the journal.
    public enum Shape: Sendable, Equatable {
        /// Its case number (a varint, in the order of `cases`), then that case's payload.
        case enumeration([Case])
        /// Its stored properties, in order.
        case structure([Field])
    }

    /// A journal-coded type: its name inside the machine's namespace (`Mode.Active`), what it is
    /// for, and its shape.
    public struct CodedType: Sendable, Equatable {
        public let name: String
        public let doc: String
        public let shape: Shape

        public init(name: String, doc: String, shape: Shape) {
            self.name = name
            self.doc = doc
            self.shape = shape
        }
    }

    /// The machine's name (`machine:`).
    public let machine: String
    /// The spec's persisted version (`persist:`).
    public let version: Int
    /// Every journal-coded type, in the order the generator prints them.
    public let types: [CodedType]

    public init(machine: String, version: Int, types: [CodedType]) {
        self.machine = machine
        self.version = version
        self.types = types
    }

    /// The type named `name` (``GeneratedNames/state``, ``GeneratedNames/event``, `Mode.Active`).
    public subscript(name: String) -> Shape? {
        types.first { $0.name == name }?.shape
    }
}
