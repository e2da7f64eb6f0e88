

/// Item converters applied one after another (rows → days → another app's days).
final class ChainedItemConverter: DocumentItemConverter {
    let steps: [any DocumentItemConverter]

    init(steps: [any DocumentItemConverter]) { self.steps = steps }

    /// Only the first step can see the source's items in a first pass; a later step that needs one
    /// cannot be chained (the pipeline then converts whole documents).
    var needsFirstPass: Bool { steps.first?.needsFirstPass ?? false }

    func observeFrame(_ frame: Document) { steps.first?.observeFrame(frame) }
    func observe(_ item: DocumentItem) { steps.first?.observe(item) }

    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        var frame = frame
        for step in steps { frame = try step.frame(frame) }
        return frame
    }

    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
        try convert(item, from: 0, emit: emit)
    }

    private func convert(_ item: DocumentItem, from step: Int, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
        guard step < steps.count else { return try emit(item) }
        try steps[step].convert(item) { (next) throws(Diagnostic) in try convert(next, from: step + 1, emit: emit) }
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
