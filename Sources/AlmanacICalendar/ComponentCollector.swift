import AlmanacCore

/// Builds whole components from parser events; `onComponent` receives each component that ends
/// at `depth` (1: the children of VCALENDAR).
struct ComponentCollector: ICalEvents {
    var stack: [ICalComponent] = []
    var properties: [ICalProperty] = []
    let onComponent: (ICalComponent) throws(Diagnostic) -> Void

    init(onComponent: @escaping (ICalComponent) throws(Diagnostic) -> Void) {
        self.onComponent = onComponent
    }

    mutating func begin(_ name: String, line: Int) throws(Diagnostic) {
        stack.append(ICalComponent(name: name, line: line))
    }

    mutating func property(_ property: ICalProperty) throws(Diagnostic) {
        if stack.count == 1 { properties.append(property) } else { stack[stack.count - 1].properties.append(property) }
    }

    mutating func end(_ name: String, line: Int) throws(Diagnostic) {
        let finished = stack.removeLast()
        if stack.count == 1 || stack.isEmpty && finished.name != "VCALENDAR" {
            try onComponent(finished)
        } else if !stack.isEmpty {
            stack[stack.count - 1].components.append(finished)
        }
    }
}
