// Docs/machine.schema.json, the editors' view of the spec format, kept in step with SpecDecoder
// (the truth): the same keys at every level, every spec and fixture of the repository valid, and
// the mistakes the decoder rejects rejected by the schema too.
import Foundation
import Testing
@testable import StateLoopSpec

@Suite struct SchemaTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Docs/machine.schema.json, read once.
    static let loaded = Result {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: repositoryRoot.appending(path: "Docs/machine.schema.json")))
    }

    static func schema() throws -> JSONValue { try loaded.get() }

    /// The object schema at `pointer` (`""` for the root, `/$defs/state`).
    static func part(_ pointer: String) throws -> [String: JSONValue] {
        let validator = JSONSchemaValidator(schema: try schema())
        return try #require(validator.resolve("#" + pointer)?.object, "no schema at \(pointer)")
    }

    /// The JSON value of a YAML text as an editor sees it, and whether SpecDecoder accepts it.
    static func read(_ yaml: [UInt8], path: String) -> (json: JSONValue?, decoderErrors: [String]) {
        let read = YAMLReader().read(yaml, path: path)
        if read.diagnostics.containsErrors { return (nil, read.diagnostics.map(\.description)) }
        let decoded = SpecDecoder().decode(read.root, path: path)
        return (read.root.map(JSONValue.init(yaml:)), decoded.diagnostics.filter { $0.severity == .error }.map(\.description))
    }

    // MARK: The schema itself

    @Test func theSchemaUsesOnlyTheKeywordsTheValidatorKnowsAndEveryReferenceResolves() throws {
        let schema = try Self.schema()
        let unsupported = JSONSchemaValidator.keywords(of: schema).subtracting(JSONSchemaValidator.supported)
        #expect(unsupported.isEmpty, "the schema uses keywords the test's validator would ignore: \(unsupported.sorted())")
        let validator = JSONSchemaValidator(schema: schema)
        let references = JSONSchemaValidator.references(in: schema)
        #expect(references.count > 20)
        for reference in references {
            #expect(validator.resolve(reference) != nil, "unresolved $ref \(reference)")
        }
        #expect(schema.object?["$schema"] == .string("http://json-schema.org/draft-07/schema#"))
    }

    /// Hover text in editors: each key (and each kind of key) says what it means.
    @Test func everyKeyHasADescription() throws {
        func visit(_ schema: JSONValue, at path: String) {
            guard let object = schema.object else { return }
            for container in ["properties", "patternProperties"] {
                for (key, property) in object[container]?.object ?? [:] {
                    #expect(property.object?["description"]?.string?.isEmpty == false, "\(path)/\(container)/\(key) has no description")
                    visit(property, at: "\(path)/\(container)/\(key)")
                }
            }
            for (name, definition) in object["$defs"]?.object ?? [:] {
                #expect(definition.object?["description"]?.string?.isEmpty == false, "\(path)/$defs/\(name) has no description")
                visit(definition, at: "\(path)/$defs/\(name)")
            }
        }
        visit(try Self.schema(), at: "")
    }

    // MARK: (a) The same keys as the decoder

    /// Each key list of `SpecDecoder.Keys`, and the schema object that must have exactly those
    /// keys and reject any other (the decoder reports unknown keys in each of them).
    static let keyLists: [(pointer: String, keys: [String], closed: Bool)] = [
        ("", SpecDecoder.Keys.machine, true),
        ("/$defs/persist", SpecDecoder.Keys.persist, true),
        ("/$defs/migration", SpecDecoder.Keys.migration, true),
        ("/$defs/contextField", SpecDecoder.Keys.contextField, true),
        ("/$defs/event", [SpecDecoder.Keys.eventSource], false),  // the other keys are payload fields
        ("/$defs/state", SpecDecoder.Keys.state, true),
        ("/$defs/transition", SpecDecoder.Keys.transition, true),
        ("/$defs/action", SpecDecoder.Keys.action, true),
        ("/$defs/effect", SpecDecoder.Keys.effect, true),
        ("/$defs/request", SpecDecoder.Keys.request, true),
        ("/$defs/outputField", SpecDecoder.Keys.outputField, true),
    ]

    @Test(arguments: keyLists.indices)
    func theSchemaHasTheDecodersKeys(_ index: Int) throws {
        let (pointer, keys, closed) = Self.keyLists[index]
        let part = try Self.part(pointer)
        let properties = Set(part["properties"]?.object?.keys.map { $0 } ?? [])
        #expect(properties == Set(keys), "\(pointer.isEmpty ? "the top level" : pointer): only in the schema \(properties.subtracting(keys).sorted()), only in SpecDecoder.Keys \(Set(keys).subtracting(properties).sorted())")
        if closed {
            #expect(part["additionalProperties"] == .bool(false), "\(pointer) must reject unknown keys, as the decoder does")
        }
    }

    @Test func theSchemaHasTheDecodersStateTypes() throws {
        let type = try #require(try Self.part("/$defs/state")["properties"]?.object?["type"]?.object)
        #expect(type["enum"] == .array(SpecDecoder.Keys.stateTypes.map(JSONValue.string)))
        // The XState spellings the decoder answers with advice are unknown keys to the schema too.
        for key in SpecDecoder.Keys.xstate.keys {
            for (pointer, _, closed) in Self.keyLists where closed {
                #expect(try Self.part(pointer)["properties"]?.object?[key] == nil, "\(pointer) accepts the XState spelling '\(key)'")
            }
        }
    }

    // MARK: (b) Every spec of the repository is valid

    /// The `*.machine.yml` files of `Specs/`, `Benchmarks/Specs/` and every fixture folder under `Tests/`.
    static func specFiles() throws -> [URL] {
        var files: [URL] = []
        for folder in ["Specs", "Benchmarks/Specs", "Tests"] {
            let root = repositoryRoot.appending(path: folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.lastPathComponent.hasSuffix(".machine.yml") || url.lastPathComponent.hasSuffix(".machine.yaml") {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func everySpecAndFixtureTheDecoderAcceptsIsValid() throws {
        let validator = JSONSchemaValidator(schema: try Self.schema())
        var validated: [String] = []
        for file in try Self.specFiles() {
            let path = String(file.path.dropFirst(Self.repositoryRoot.path.count + 1))
            let (json, decoderErrors) = Self.read(Array(try Data(contentsOf: file)), path: path)
            guard let json, decoderErrors.isEmpty else {
                #expect(!path.hasPrefix("Specs/"), "the example spec \(path) does not decode: \(decoderErrors)")
                continue
            }
            let errors = validator.errors(of: json)
            #expect(errors.isEmpty, "\(path) is valid to the decoder but not to Docs/machine.schema.json:\n\(errors.joined(separator: "\n"))")
            validated.append(path)
        }
        #expect(validated.filter { $0.hasPrefix("Specs/") }.count >= 13, "\(validated)")
        #expect(validated.filter { $0.hasPrefix("Tests/") }.count >= 20, "\(validated)")
    }

    /// Every short form the decoder takes, in one spec: names as one or a list or nothing, one
    /// action or a list, a target name, `ignore`, branch lists, delay names and durations,
    /// `forward:` as a list and as a mapping, one-shot effects, sets, streams, failures.
    @Test func everyShortFormTheDecoderAcceptsIsValid() throws {
        let yaml = """
            machine: Shapes
            imports: Foundation
            persist: {version: 2, migrations: {1: {states: {old: count}, fields: {gone: null, was: name}, events: {}, runs: {ping: ~}}}}
            input: {start: Int}
            context:
              count: {type: Int, default: 0}
              ready: {type: Bool, default: true}
              name: {type: String?}
              ratio: {type: Double, default: 1.5}
            events:
              go: {}
              stop:
              tick: {from: effects, at: Int}
              failed: {from: effects, error: String, request: Int}
              done: {receipt: String}
            on:
              stop: ignore
            ignore:
            delays: {backoff: ".seconds(count)"}
            initial: idle
            states:
              idle:
                entry: {set: {count: 0}}
                exit: [{run: log, request: count}, {run: ping}, {set: {ready: false}}]
                on:
                  go: busy
                  tick: [{guard: ready, target: busy, set: {count: event.at}, do: {run: ping}}, ignore]
                  failed: {}
                  done: {target: idle}
                after: {5s: busy, 250ms: ignore, 1.5s: [{guard: "count > 1", target: busy}, ignore], backoff: idle}
                always: [{guard: "count > 99", target: finished}]
              busy:
                type: parallel
                states:
                  left:
                    initial: l1
                    states:
                      l1: {on: {go: l2}}
                      l2: {type: final}
                      back: {type: history, history: deep, target: l1}
                  right: {initial: r1, states: {r1: {on: {go: r1}}}}
                onDone: idle
                ignore: [go]
              finished:
                type: final
                output: {total: {type: Int, value: count}}
            effects:
              log: {request: {type: Int}}
              ping: {}
              poll: {in: [busy], request: {type: Int, value: "ready ? count : nil"}, emits: tick, stream: true, onError: failed}
              fetch: {in: busy, requests: {type: Int, value: "Set([count])"}, emits: [tick]}
              child: {in: [busy], machine: Payment, input: {amount: count}, forward: [go], onDone: {paid: done}}
              other: {in: [idle], machine: Payment, forward: {stop: abort}}
              quiet: {in: [idle], request: {type: Int, value: count}, emits: []}

            """
        let (json, decoderErrors) = Self.read(Array(yaml.utf8), path: "Shapes.machine.yml")
        #expect(decoderErrors == [])
        let errors = JSONSchemaValidator(schema: try Self.schema()).errors(of: try #require(json))
        #expect(errors == [])
    }

    // MARK: (c) Mistakes are rejected

    /// Specs the decoder rejects, and a part of the schema's complaint.
    static let mistakes: [(yaml: String, complaint: String)] = [
        ("machine: A\ninitial: a\nstates: {a: {}}\nstats: {}\n", "/: unknown key 'stats'"),
        ("machine: A\ninitial: a\nstates: {a: {type: finall}}\n", "/states/a/type: 'finall' is not one of"),
        ("machine: A\ninitial: a\nstates: {a: {tpye: final}}\n", "/states/a: unknown key 'tpye'"),
        ("machine: A\ninitial: a\nstates: {a: {final: true}}\n", "/states/a: unknown key 'final'"),
        ("machine: A\ninitial: a\nstates: {a: {}}\neffects: {e: {in: [a], request: {type: Int, value: v}, emits: [x], stream: maybe}}\n",
         "/effects/e/stream: expected boolean, found 'maybe'"),
        ("machine: A\nevents: {x: {}}\ninitial: a\nstates: {a: {on: {x: {target: a, actions: []}}}}\n", "unknown key 'actions'"),
        ("machine: A\nevents: {x: {}}\ninitial: a\nstates: {a: {on: {x: {target: a, cond: ok}}}}\n", "unknown key 'cond'"),
        ("machine: A\nevents: {x: {}}\ninitial: a\nstates: {a: {on: {x: []}}}\n", "fewer than 1 items"),
        ("machine: A\ninitial: a\nstates: {a: {after: {5x: a}}}\n", "/states/a/after: unknown key '5x'"),
        ("machine: A\ninitial: a\nstates: {a: {entry: [{set: {n: 1}, run: e}]}}\n", "/states/a/entry: matches none"),
        ("machine: A\ninitial: a\nstates: {a: {entry: [{run: e, invoke: x}]}}\n", "unknown key 'invoke'"),
        ("machine: A\ninitial: a\nstates: {a: {history: deep}}\n", "/states/a: missing required key 'type' (because of 'history')"),
        ("machine: A\ninitial: a\nstates: {a: {history: sometimes, type: history}}\n", "/states/a/history: 'sometimes' is not one of"),
        ("machine: A\nevents: {x: {from: users}}\ninitial: a\nstates: {a: {}}\n", "/events/x/from: expected 'effects', found 'users'"),
        ("machine: A\ncontext: {n: {default: 0}}\ninitial: a\nstates: {a: {}}\n", "/context/n: missing required key 'type'"),
        ("machine: A\ninitial: a\nstates: {a: {}}\neffects: {e: {in: [a], request: {type: Int, value: v}, requests: {type: Int, value: s}}}\n",
         "/effects/e/requests: not allowed here (because of 'request')"),
        ("machine: A\ninitial: a\nstates: {a: {}}\neffects: {e: {in: [a], machine: B, emits: [x]}}\n", "/effects/e/emits: not allowed here (because of 'machine')"),
        ("machine: A\ninitial: a\nstates: {a: {}}\neffects: {e: {in: [a], request: {type: Int, value: v}, forward: [x]}}\n", "/effects/e: 'forward' needs 'machine'"),
        ("machine: A\ninitial: a\nstates: {a: {}}\neffects: {e: {in: [a], request: {type: Int, valeu: v}}}\n", "/effects/e/request: unknown key 'valeu'"),
        ("machine: A\nstates: {a: {}}\n", "/: missing required key 'initial'"),
        ("machine: A\npersist: {version: two}\ninitial: a\nstates: {a: {}}\n", "/persist: matches none"),
        ("machine: A\npersist: {verison: 2}\ninitial: a\nstates: {a: {}}\n", "/persist: matches none"),
        ("machine: A\npersist: yes\ninitial: a\nstates: {a: {}}\n", "/persist: matches none"),
    ]

    @Test(arguments: mistakes.indices)
    func aMistakeTheDecoderRejectsTheSchemaRejectsToo(_ index: Int) throws {
        let (yaml, complaint) = Self.mistakes[index]
        let (json, decoderErrors) = Self.read(Array(yaml.utf8), path: "bad.machine.yml")
        #expect(!decoderErrors.isEmpty, "the decoder accepts \(yaml)")
        let errors = JSONSchemaValidator(schema: try Self.schema()).errors(of: try #require(json))
        #expect(errors.contains { $0.contains(complaint) }, "expected '\(complaint)' among \(errors)")
    }

    /// The validator sees YAML as editors do: plain `true` is a boolean, quoted `"true"` text.
    @Test func plainScalarsFollowTheCoreSchema() {
        #expect(JSONValue.coreSchema("true") == .bool(true))
        #expect(JSONValue.coreSchema("on") == .string("on"))
        #expect(JSONValue.coreSchema("") == .null)
        #expect(JSONValue.coreSchema("~") == .null)
        #expect(JSONValue.coreSchema("12") == .number(12))
        #expect(JSONValue.coreSchema("1.5") == .number(1.5))
        #expect(JSONValue.coreSchema("0x1F") == .number(31))
        #expect(JSONValue.coreSchema("5s") == .string("5s"))
        #expect(JSONValue.coreSchema("Int?") == .string("Int?"))
    }
}
