import Foundation
// The protocol the render context conforms to; its module comes with StateLoopCodegen's.
import Mustache
import StateLoopCodegen
import StateLoopSpec
import Testing

/// The render context answers Mustache through `MustacheParent` (a `switch` per type) instead of
/// `Mirror`, for speed. A stored property missing from its `switch` would render as an empty
/// string; this walks real contexts and checks that every property `Mirror` sees is answered.
@Suite struct MustacheParentTests {
    /// Every (type, property) pair reachable from `value` whose property `child(named:)` does not answer.
    func unanswered(in value: Any) -> Set<String> {
        var missing: Set<String> = []
        let mirror = Mirror(reflecting: value)
        if let parent = value as? MustacheParent, mirror.displayStyle == .struct {
            for case let (label?, _) in mirror.children where parent.child(named: label) == nil {
                missing.insert("\(type(of: value)).\(label)")
            }
        }
        for child in mirror.children {
            missing.formUnion(unanswered(in: child.value))
        }
        return missing
    }

    @Test(arguments: ["GitHubSearch", "Edges", "Keywords", "Turnstile", "Checkout"])
    func everyStoredPropertyOfTheRenderContextIsAnswered(_ fixture: String) throws {
        let contents = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent("\(fixture).machine.yml")))
        let spec = try #require(SpecLoader.load(contents: contents, path: "\(fixture).machine.yml", library: TestPaths.fixtureLibrary).spec)
        let context = MachineContextBuilder.build(spec)
        #expect(unanswered(in: context) == [])
    }
}
