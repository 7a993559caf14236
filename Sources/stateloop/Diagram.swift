import ArgumentParser
import Foundation
import StateLoopCodegen
import StateLoopDiagram
import StateLoopSpec

/// `stateloop diagram SPEC --format dot|mermaid|svg|png [--output FILE] [--detail ...]`
struct Diagram: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a machine as a Graphviz or Mermaid diagram.",
        discussion: """
            dot and mermaid print text (Mermaid's stateDiagram-v2 renders on GitHub inside a \
            ```mermaid block). svg and png run Graphviz's `dot`, which must be installed \
            (apt-get install graphviz, brew install graphviz). Without --output, text formats go \
            to standard output and pictures to <name>.<format> in the current folder.
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case dot, mermaid, svg, png
    }

    @Argument(help: "The spec file (*.machine.yml or *.machine.yaml).")
    var spec: String

    @Option(name: .shortAndLong, help: "The diagram format: text (dot, mermaid) or a picture drawn by Graphviz (svg, png).")
    var format: Format = .svg

    @Option(name: .shortAndLong, help: "The file to write (see above for the default).")
    var output: String?

    @Option(help: "How much to show: compact leaves out set: assignments, full adds the ignored events.")
    var detail: DiagramDetail = .standard

    func run() throws {
        let read = try ChildSpecs(specs: [spec])
        let result = SpecLoader.load(contents: read.contents(of: spec), path: spec, library: read.library)
        Console.report(result.diagnostics)
        guard let machine = result.spec else { throw ExitCode.specErrors }

        let bytes: [UInt8]
        switch format {
        case .dot: bytes = Array(DOTRenderer(detail: detail).render(machine).utf8)
        case .mermaid: bytes = Array(MermaidRenderer(detail: detail).render(machine).utf8)
        case .svg, .png:
            do {
                bytes = try Graphviz().render(DOTRenderer(detail: detail).render(machine), format: format == .svg ? .svg : .png)
            } catch {
                throw Console.fail("\(error)", about: spec)
            }
        }

        let path = output ?? ([.svg, .png].contains(format) ? "\(SpecFileNaming.stem(ofSpecAt: spec)).\(format.rawValue)" : nil)
        guard let path else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try OutputWriter.writeIfChanged(bytes, to: path)
        } catch {
            throw Console.fail("cannot write the diagram", error)
        }
    }
}

extension DiagramDetail: ExpressibleByArgument {}
