// libFuzzer entry point over the generator's pipeline: the spec front end (reader -> decoder ->
// checker) and, for each input that loads, the Swift generation (render context -> templates).
//
// Built by Scripts/fuzz.sh: the generator runs inside every user's build, so no input may crash,
// hang, leak or break the promises callers rely on. Besides the crashes and leaks AddressSanitizer
// and libFuzzer detect, each input checks those promises and traps (a libFuzzer "deadly signal")
// when one is broken.
import StateLoopCodegen
import StateLoopSpec

/// The pipeline with the built-in templates, made once: parsing the templates is not what is
/// being fuzzed.
private let pipeline = GeneratorPipeline()

/// One libFuzzer input: load it as a spec, generate Swift when it loads, check both results.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let path = "fuzz.machine.yml"
    let loaded = SpecLoader.load(contents: bytes, path: path)
    checkInvariants(spec: loaded.spec != nil, diagnostics: loaded.diagnostics, path: path, stage: "load")
    if let spec = loaded.spec, pipeline.generate(spec: spec).isEmpty {
        fatalError("a checked spec generated no Swift")
    }
    return 0
}

/// A result exactly when there is no error, diagnostics sorted by position, every location (notes
/// included) in the given file and 1-based.
private func checkInvariants(spec hasResult: Bool, diagnostics: [Diagnostic], path: String, stage: String) {
    let hasErrors = diagnostics.contains { $0.severity == .error }
    precondition(hasResult != hasErrors, "\(stage): result is \(hasResult ? "present" : "nil") but errors: \(hasErrors)\n\(diagnostics)")
    for (previous, next) in zip(diagnostics, diagnostics.dropFirst()) {
        precondition(!(next.location < previous.location), "\(stage): diagnostics out of order: \(previous) before \(next)")
    }
    for diagnostic in diagnostics {
        for location in [diagnostic.location] + diagnostic.notes.map(\.location) {
            precondition(location.file == path && location.line >= 1 && location.column >= 1, "\(stage): bad location \(location) in \(diagnostic)")
        }
    }
}
