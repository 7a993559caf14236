@testable import StateLoopSpec
import Testing

// Loops as written (Docs/Statecharts.md S172, S173): each mistake at its key or name.

@Suite struct ForeachDecodingTests {
    @Test("S172: item: and index: name declared context fields, the index an Int, each error at the name with the fix")
    func s172LoopFieldsAreDeclared() {
        let yaml = """
            machine: T
            context:
              items: {type: "[Int]", default: "[]"}
              item: {type: Int, default: "0"}
              label: {type: String, default: '""'}
            events: {go: {}}
            initial: a
            states:
              a:
                entry: [{foreach: {in: items, item: iten}}]
                on:
                  go: {do: [{if: "true", then: [{foreach: {in: items, item: item, index: label}}]}]}
                exit: [{foreach: {in: items, item: item, do: [{foreach: {in: items, item: item, index: position}}]}}]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:10:41: error: 'item:' of 'foreach:' names 'iten', which is not a context field (fix: did you mean 'item'?)",
            "test.machine.yml:12:78: error: 'index:' of 'foreach:' names 'label', a 'String'; an index is an 'Int' or an 'Int?' (fix: declare 'label' with 'type: Int', or name an 'Int' field)",
            "test.machine.yml:13:92: error: 'index:' of 'foreach:' names 'position', which is not a context field (fix: use one of items, item, label, or declare 'position' under 'context:')",
        ])
    }

    @Test("S173: a foreach: without in: or item:, with an unknown key, with index: naming the item, or beside set: fails at its place")
    func s173LoopsAreDecodedStrictly() {
        let yaml = """
            machine: T
            context: {items: {type: "[Int]", default: "[]"}, item: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a:
                entry:
                  - {foreach: {item: item}}
                  - {foreach: {in: items}}
                  - {foreach: {in: items, item: item, as: item}}
                  - {foreach: {in: items, item: item, index: item}}
                  - {foreach: {in: items, item: item}, set: {item: "1"}}
                  - {foreach: items}
                ignore: [go]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:19: error: 'foreach:' has no 'in:' (fix: write 'foreach: {in: array, item: field, index: field, do: [actions]}')",
            "test.machine.yml:9:19: error: 'foreach:' has no 'item:' (fix: write 'foreach: {in: array, item: field, index: field, do: [actions]}')",
            "test.machine.yml:10:43: error: unknown key 'as' in 'foreach:' (fix: use one of in, item, index, do)",
            "test.machine.yml:11:50: error: 'index:' names 'item', the field 'item:' names (fix: name two different context fields)",
            "test.machine.yml:12:44: error: a 'foreach:' action does nothing else; 'set:' belongs to an action of its own (fix: write them as two actions: [{foreach: ...}, {set: ...}])",
            "test.machine.yml:13:19: error: expected a loop, found 'items' (fix: write 'foreach: {in: array, item: field, index: field, do: [actions]}')",
        ])
    }
}
