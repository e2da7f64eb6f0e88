

/// Item converters applied one after another (rows → days → another app's days).
final class ChainedItemConverter: DocumentItemConverter {
    let steps: [any DocumentItemConverter]

    init(steps: [any DocumentItemConverter]) { self.steps = steps }

    /// Only the first step can see the source's items in a first pass; a later step that needs one
    /// cannot be chained (the pipeline then converts whole documents).
    var needsFirstPass: Bool { steps.first?.needsFirstPass ?? false }

    func observe(_ item: DocumentItem) { steps.first?.observe(item) }

    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        var frame = frame
        for step in steps { frame = try step.frame(frame) }
        return frame
    }

    func convert(_ item: DocumentItem) throws(Diagnostic) -> DocumentItem? {
        var current = item
        for step in steps {
            guard let next = try step.convert(current) else { return nil }
            current = next
        }
        return current
    }

    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) {
        var frame = frame
        var diagnostics: [Diagnostic] = []
        for step in steps {
            let (next, notes) = try step.finish(frame)
            frame = next
            diagnostics += notes
        }
        return (frame, diagnostics)
    }
}
