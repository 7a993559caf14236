/// A node of a YAML document as the spec reader sees it: a scalar, a sequence or a mapping, each
/// with the 1-based location where it starts.
///
/// Every scalar stays a string; the spec schema (`SpecDecoder`) decides what it means. This is
/// what keeps `on`, `off`, `yes` and `no` names instead of YAML 1.1 booleans.
struct YAMLNode: Sendable {
    /// What the node holds.
    enum Content: Sendable {
        /// A single value, always text.
        case scalar(YAMLScalar)
        /// A list (`[a, b]` or `- a` lines), in order.
        case sequence([YAMLNode])
        /// A mapping (`{a: b}` or `a: b` lines), in the order written.
        case mapping([YAMLMappingEntry])
    }

    /// The scalar, list or mapping.
    var content: Content
    /// Where the node starts: the first character of a plain scalar, the quote of a quoted one,
    /// the `|`/`>` of a block scalar, the `[`/`{` of a flow collection, the first `-` or key of a
    /// block collection.
    var location: SourceLocation

    /// A node with its content and start.
    init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The scalar, when the node is one.
    var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, when the node is a sequence.
    var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries, when the node is a mapping.
    var mapping: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// "a scalar", "a list" or "a mapping", for messages such as "expected a mapping, found a list".
    var kindDescription: String {
        switch content {
        case .scalar(let scalar): scalar.value.isEmpty && scalar.style == .plain ? "nothing" : "a single value"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A scalar: its text, how it was written, and where its text starts.
struct YAMLScalar: Sendable {
    /// How the scalar was written; the reader uses it to find where the parts of the value were
    /// written (`sourceMap`).
    enum Style: Sendable, Hashable {
        /// Unquoted; the text is exactly what was written.
        case plain
        /// `'...'`; `''` in the source is one `'` in the value.
        case singleQuoted
        /// `"..."`; backslash escapes are resolved, so columns inside the value can drift.
        case doubleQuoted
        /// `|`
        case literal
        /// `>`
        case folded

        /// `|` or `>`.
        var isBlock: Bool { self == .literal || self == .folded }
    }

    /// The text after YAML has resolved quoting and escapes.
    var value: String
    var style: Style
    /// Where the scalar starts (the quote of a quoted scalar, the `|` of a block scalar).
    var location: SourceLocation
    /// Where the *text* starts: the same as `location` for a plain scalar, one column after the
    /// quote for a quoted one, the first character of the first content line for a block scalar.
    /// Codegen puts `#sourceLocation` here so that Swift errors in an embedded expression land at
    /// the exact YAML line and column.
    var contentLocation: SourceLocation
    /// Where each part of the text was written, when it is not the file's text as it stands from
    /// `contentLocation` on one line: escapes, folded lines, a block scalar's lines.
    var sourceMap: SourceMap?

    /// A scalar with its text, style, start, the start of its text, and where its parts were written.
    init(_ value: String, style: Style, at location: SourceLocation, contentAt contentLocation: SourceLocation, sourceMap: SourceMap? = nil) {
        self.value = value
        self.style = style
        self.location = location
        self.contentLocation = contentLocation
        self.sourceMap = sourceMap
    }

    /// The text located at its content, as the spec model stores values.
    var located: Located<String> { Located(value, at: contentLocation, sourceMap: sourceMap) }
}

/// One `key: value` pair of a mapping. Keys are scalars (the reader rejects complex keys).
struct YAMLMappingEntry: Sendable {
    /// The key, always a scalar.
    var key: YAMLScalar
    /// The value under the key.
    var value: YAMLNode

    /// A key-value pair.
    init(key: YAMLScalar, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
