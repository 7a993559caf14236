// libFuzzer entry point over the whole spec front end (reader -> decoder -> checker).
//
// Built by Scripts/fuzz.sh together with Sources/StateLoopSpec into one module: the generator runs
// inside every user's build, so no input may crash, hang, leak or break the loader's promises.
// Besides the crashes and leaks that AddressSanitizer and libFuzzer detect, each input checks the
// invariants callers rely on, and traps (a libFuzzer "deadly signal") when one is broken.

/// One libFuzzer input: load it as a spec and check the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let path = "fuzz.machine.yml"
    let result = SpecLoader.load(contents: bytes, path: path)
    checkInvariants(of: result, path: path)
    return 0
}

/// The promises of `SpecLoader.load`: a spec exactly when there is no error, diagnostics sorted by
/// position, every location (notes included) in the given file and 1-based.
private func checkInvariants(of result: SpecLoadResult, path: String) {
    let hasErrors = result.diagnostics.contains { $0.severity == .error }
    precondition((result.spec == nil) == hasErrors, "spec is \(result.spec == nil ? "nil" : "present") but errors: \(hasErrors)\n\(result.diagnostics)")
    for (previous, next) in zip(result.diagnostics, result.diagnostics.dropFirst()) {
        precondition(!(next.location < previous.location), "diagnostics out of order: \(previous) before \(next)")
    }
    for diagnostic in result.diagnostics {
        for location in [diagnostic.location] + diagnostic.notes.map(\.location) {
            precondition(location.file == path && location.line >= 1 && location.column >= 1, "bad location \(location) in \(diagnostic)")
        }
    }
}
