import SwiftUI

struct ContentView: View {
    let name: String
    var body: some View {
        VStack {
            Text("settings.title")
            Text(String(format: NSLocalizedString("greeting", comment: "Greeting"), name))
            Button(String(localized: "save")) {}
            // Text("commented.out")
            Text("profile.\(name)")
            Label(LocalizedStringKey("missing.from.catalog"), systemImage: "star")
        }
    }
}
