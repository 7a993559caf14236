import CYAML

/// Reads the bytes of one YAML document into a `YAMLNode` tree, with a location on every node.
///
/// Uses libyaml's event API rather than a Codable decoder: we need the mark of every key and
/// value, duplicate keys made visible, and no YAML 1.1 typing. The tree is built iteratively with
/// an explicit stack, and both the size of the input and the nesting depth are bounded, so no
/// input — empty, binary, 100,000 levels deep, 10 MB — can crash, hang or exhaust the stack.
/// Every libyaml object is freed on every path (`defer`).
///
/// What specs never need is rejected with advice instead of half-supported: anchors and aliases
/// (no billion-laughs), tags (a bare `!` in an expression is the usual accident), complex keys,
/// and more than one document.
struct YAMLReader: Sendable {
    /// The deepest nesting of lists and mappings accepted. A spec needs about six levels.
    var maximumDepth: Int
    /// The largest input accepted, in bytes.
    var maximumSize: Int
    /// The longest scalar (a name, a type, an expression) accepted, in UTF-8 bytes. Messages quote
    /// names, often once per entry under them, so an unbounded name would make the diagnostics of
    /// one file grow with its size squared; and no name or guard is anywhere near this long.
    var maximumScalarLength: Int

    /// A reader with the default limits: 64 levels, 4 MiB, scalars of 64 KiB.
    init(maximumDepth: Int = 64, maximumSize: Int = 4 << 20, maximumScalarLength: Int = 64 << 10) {
        self.maximumDepth = maximumDepth
        self.maximumSize = maximumSize
        self.maximumScalarLength = maximumScalarLength
    }

    /// What `read` found: the document's root (nil for an empty stream or when reading failed)
    /// and the problems, in the order found.
    struct Result: Sendable {
        /// The document's root node; `nil` for an empty stream, or when the input could not be
        /// read as a whole (syntax error, a limit hit, a second document).
        var root: YAMLNode?
        /// Every problem found while reading, in the order found.
        var diagnostics: [Diagnostic]
    }

    /// Reads `contents` (UTF-8, or UTF-16 with a byte order mark) as one YAML document.
    /// `path` is only used to label locations.
    func read(_ contents: [UInt8], path: String) -> Result {
        let start = SourceLocation(file: path, line: 1, column: 1)
        if contents.count > maximumSize {
            return Result(root: nil, diagnostics: [.error(
                "the file is \(contents.count) bytes; a spec may be at most \(maximumSize) bytes",
                at: start, fixIt: "split the machine into smaller specs")])
        }
        if contents.isEmpty { return Result(root: nil, diagnostics: []) }
        var session = ReadSession(contents: contents, path: path, maximumDepth: maximumDepth, maximumScalarLength: maximumScalarLength)
        contents.withUnsafeBufferPointer { buffer in
            session.run(buffer)
        }
        return Result(root: session.failed ? nil : session.root, diagnostics: session.diagnostics)
    }
}

/// The state of one `YAMLReader.read` call: the libyaml loop and the stack of open collections.
private struct ReadSession {
    let contents: [UInt8]
    /// The file's characters, for positions in UTF-8 columns and the source maps of scalars.
    let source: SourceText
    let path: String
    let maximumDepth: Int
    let maximumScalarLength: Int
    var diagnostics: [Diagnostic] = []
    var root: YAMLNode?
    /// Set when the tree cannot be trusted (syntax error, limit hit); the root is then dropped.
    var failed = false
    private var stack: [Frame] = []
    private var documents = 0
    /// Byte offsets of line starts, computed on first need (reader errors).
    private var lineStarts: [Int]?

    /// An open sequence or mapping.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        var items: [YAMLNode] = []
        var entries: [YAMLMappingEntry] = []
        /// The key waiting for its value; `nil` with `dropValue` set means "discard the next value".
        var pendingKey: YAMLScalar?
        var dropValue = false
        /// First location of each key, to report duplicates; made only for large mappings; a
        /// small one is searched in `entries` (most spec mappings have one to three keys, and a
        /// dictionary each was a tenth of reading).
        var seenKeys: [String: SourceLocation]?

        /// Where `key` first appears in this mapping, if it does.
        mutating func firstLocation(of key: String) -> SourceLocation? {
            if seenKeys == nil && entries.count < 16 {
                return entries.first { $0.key.value == key }?.key.location
            }
            if seenKeys == nil {
                seenKeys = Dictionary(entries.map { ($0.key.value, $0.key.location) }, uniquingKeysWith: { first, _ in first })
            }
            return seenKeys![key]
        }
    }

    init(contents: [UInt8], path: String, maximumDepth: Int, maximumScalarLength: Int) {
        self.contents = contents
        self.source = SourceText(contents)
        self.path = path
        self.maximumDepth = maximumDepth
        self.maximumScalarLength = maximumScalarLength
    }

    /// A libyaml mark (0-based, in characters) as a location (1-based, in UTF-8 bytes).
    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: path, line: mark.line + 1, column: source.column(of: mark))
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            fail("libyaml could not start (out of memory)", at: SourceLocation(file: path, line: 1, column: 1), fixIt: nil)
            return
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                reportParserError(parser)
                return
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { return }
            handle(event)
            if failed { return }
        }
    }

    private mutating func handle(_ event: yaml_event_t) {
        let start = location(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                fail(
                    "a spec file holds one YAML document; a second one starts here", at: start,
                    fixIt: "remove the '---' line, or move the second machine to its own *.machine.yml file")
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            if data.length > maximumScalarLength {
                fail(
                    "this value is \(data.length) bytes long; a name, type or expression may be at most \(maximumScalarLength) bytes",
                    at: start, fixIt: "shorten it; if it runs on past where it should end, look for an unclosed quote or a missing line break")
                return
            }
            rejectAnchor(data.anchor, at: start)
            let value = Self.string(data.value, count: data.length)
            if let tag = data.tag {
                // libyaml resolves `!!str` to its full form; show it as the author wrote it.
                var tagText = Self.string(tag)
                if tagText.hasPrefix("tag:yaml.org,2002:") { tagText = "!!" + tagText.dropFirst("tag:yaml.org,2002:".count) }
                let written = value.isEmpty ? tagText : "\(tagText) \(value)"
                error(
                    "'\(tagText)' is a YAML tag, not part of the value: a bare ! is a YAML tag; quote the expression",
                    at: start, fixIt: "write \"\(written.replacingQuotes())\"")
            }
            let style: YAMLScalar.Style = switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
            var contentStart = start
            if style == .singleQuoted || style == .doubleQuoted { contentStart.column += 1 }
            // Most scalars are one line of the file as it stands; only the others are read again.
            let oneLine = event.start_mark.line == event.end_mark.line
            let verbatim = switch style {
            case .plain: oneLine
            case .singleQuoted, .doubleQuoted: oneLine && source.isASCII && data.length == event.end_mark.index - event.start_mark.index - 2
            case .literal, .folded: false
            }
            var sourceMap: SourceMap?
            if !verbatim {
                let placement = source.placement(of: Array(value.unicodeScalars), style: style, start: event.start_mark, end: event.end_mark)
                sourceMap = placement?.map
                if style.isBlock {
                    // The line after the header, at the block's indentation; the header when empty.
                    contentStart = placement?.blockStart.map { SourceLocation(file: path, line: $0.line, column: $0.column) } ?? start
                }
            }
            attach(YAMLNode(.scalar(YAMLScalar(value, style: style, at: start, contentAt: contentStart, sourceMap: sourceMap)), at: start))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor)
            error(
                "YAML aliases ('*\(name)') are not supported in a spec", at: start,
                fixIt: "write the value out in full instead of '*\(name)'")
            attach(YAMLNode(.scalar(YAMLScalar("", style: .plain, at: start, contentAt: start)), at: start))
        case YAML_SEQUENCE_START_EVENT:
            rejectAnchor(event.data.sequence_start.anchor, at: start)
            rejectTag(event.data.sequence_start.tag, at: start)
            open(isMapping: false, at: start)
        case YAML_MAPPING_START_EVENT:
            rejectAnchor(event.data.mapping_start.anchor, at: start)
            rejectTag(event.data.mapping_start.tag, at: start)
            open(isMapping: true, at: start)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            let node = frame.isMapping
                ? YAMLNode(.mapping(frame.entries), at: frame.location)
                : YAMLNode(.sequence(frame.items), at: frame.location)
            attach(node)
        default:
            break  // stream start, document end: nothing to build
        }
    }

    private mutating func open(isMapping: Bool, at start: SourceLocation) {
        if stack.count >= maximumDepth {
            fail(
                "the YAML nests deeper than \(maximumDepth) levels; a spec needs only a few", at: start,
                fixIt: "flatten the structure; check for unbalanced '[' or '{'")
            return
        }
        stack.append(Frame(isMapping: isMapping, location: start))
    }

    /// Puts a finished node into the collection that is open, or makes it the root.
    private mutating func attach(_ node: YAMLNode) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        if !stack[top].isMapping {
            stack[top].items.append(node)
            return
        }
        if let key = stack[top].pendingKey {
            stack[top].entries.append(YAMLMappingEntry(key: key, value: node))
            stack[top].pendingKey = nil
            return
        }
        if stack[top].dropValue {
            stack[top].dropValue = false
            return
        }
        // The node is a key.
        guard let key = node.scalar else {
            error(
                "a mapping key must be a name, found \(node.kindDescription)", at: node.location,
                fixIt: "write a plain name before ':'; quote keys that contain brackets")
            stack[top].dropValue = true
            return
        }
        if let first = stack[top].firstLocation(of: key.value) {
            error(
                "duplicate key '\(key.value)'; a key may appear only once in a mapping", at: key.location,
                notes: [Diagnostic.Note("'\(key.value)' first appears here", at: first)],
                fixIt: "merge the two entries, or rename one of them")
            stack[top].dropValue = true
            return
        }
        stack[top].seenKeys?[key.value] = key.location
        stack[top].pendingKey = key
    }

    private mutating func rejectAnchor(_ anchor: UnsafeMutablePointer<yaml_char_t>?, at start: SourceLocation) {
        guard let anchor else { return }
        let name = Self.string(anchor)
        error(
            "YAML anchors ('&\(name)') are not supported in a spec", at: start,
            fixIt: "remove '&\(name)' and write repeated values out in full")
    }

    private mutating func rejectTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, at start: SourceLocation) {
        guard let tag else { return }
        error(
            "'\(Self.string(tag))' is a YAML tag; specs do not use tags", at: start,
            fixIt: "remove the tag; a bare ! is a YAML tag, so quote expressions that start with !")
    }

    private mutating func reportParserError(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            fail("libyaml ran out of memory reading the file", at: SourceLocation(file: path, line: 1, column: 1), fixIt: nil)
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset, not a mark.
            var detail = problem
            if parser.problem_value != -1 {
                let value = UInt32(bitPattern: parser.problem_value)
                let hex = String(value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, (value <= 0xFF ? 2 : 4) - hex.count)) + hex
                detail += " (\(value <= 0xFF ? "byte" : "character") 0x\(padded))"
            }
            fail(
                "the file is not valid YAML text: \(detail)", at: locationOfByte(parser.problem_offset),
                fixIt: "save the spec as UTF-8 text without control characters")
        default:
            var notes: [Diagnostic.Note] = []
            if let context = parser.context {
                notes.append(Diagnostic.Note(String(cString: context), at: location(parser.context_mark)))
            }
            fail(
                "YAML syntax error: \(problem)", at: location(parser.problem_mark), notes: notes,
                fixIt: "check indentation and quoting here; quote values that contain ': ', ' #', '!', '&', '*', '[', ']', '{' or '}'")
        }
    }

    private mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String?) {
        diagnostics.append(.error(message, at: location, notes: notes, fixIt: fixIt))
    }

    private mutating func fail(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String?) {
        error(message, at: location, notes: notes, fixIt: fixIt)
        failed = true
    }

    // MARK: Positions libyaml does not give directly

    private mutating func lineStartOffsets() -> [Int] {
        if let lineStarts { return lineStarts }
        var starts = [0]
        for (offset, byte) in contents.enumerated() {
            // LF, or CR not followed by LF: a CR alone ends a line too.
            if byte == 0x0A || (byte == 0x0D && (offset + 1 == contents.count || contents[offset + 1] != 0x0A)) {
                starts.append(offset + 1)
            }
        }
        lineStarts = starts
        return starts
    }

    /// Line and column (in UTF-8 bytes, as everywhere) of a byte offset, for reader errors.
    private mutating func locationOfByte(_ byteOffset: Int) -> SourceLocation {
        let starts = lineStartOffsets()
        let offset = min(byteOffset, contents.count)
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: path, line: low + 1, column: offset - starts[low] + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, count: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

extension String {
    /// The text with `"` escaped, to show it inside a double-quoted YAML suggestion.
    fileprivate func replacingQuotes() -> String {
        var result = ""
        for character in self {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
