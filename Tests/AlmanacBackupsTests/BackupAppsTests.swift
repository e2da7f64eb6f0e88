@testable import AlmanacBackups
import AlmanacCore
import Foundation
import Testing

/// What an app in `BackupApps.all` must bring with it: everything else is shared, so a fifth app
/// that forgets one of these is caught here rather than by a user.
@Suite struct BackupAppsTests {
    @Test(arguments: BackupApps.all.map { $0.format })
    func everyAppIsWhole(format: String) throws {
        let app = try #require(BackupApps.app(format))
        // Its schema, example file and codec.
        #expect(FileManager.default.fileExists(atPath: repository + "/Schemas/\(format).schema.json"))
        #expect(FileManager.default.fileExists(atPath: repository + "/Examples/\(format).json"))
        let codec = try #require(BackupCodec(id: format))
        // Its registry example reads, and what it counts and merges are members its file may have.
        let decoded = try codec.decode(CodecInput(bytes: Array(app.about.example.utf8), fileName: "example.json"), context: CodecContext())
        #expect(!decoded.diagnostics.contains { $0.severity == .error })
        let fields = app.topLevelFields(version: app.version)
        for list in app.counted.map(\.list) + app.mergeCollections.map(\.name) {
            #expect(fields.contains(list), "\(format): \(list) is not a member of the backup")
        }
        // Each merge reference names a collection the app merges.
        let names = Set(app.mergeCollections.flatMap { [$0.name] + $0.nested.map(\.name) })
        for target in app.mergeCollections.flatMap({ $0.references.values }) {
            #expect(names.contains(target), "\(format): merge reference to \(target)")
        }
        // Its records go to its model and come back as its backup.
        var context = CodecContext(options: ["exported-at": "2025-11-20T10:00:00Z"])
        context.targetFormat = format
        let (model, _) = try BackupConverter().convert(decoded.document, to: app.model, context: context)
        #expect(model.kind == app.model)
        let (back, _) = try BackupConverter().convert(model, to: .backup, context: context)
        guard case .backup(let written) = back else { Issue.record("\(format): not a backup"); return }
        #expect(written.format == format)
        #expect(written.recordCount > 0)
    }

    @Test func formatsAreDistinct() {
        #expect(Set(BackupApps.all.map { $0.format }).count == BackupApps.all.count)
        #expect(BackupCodec.all.map(\.id) == BackupApps.all.map { $0.format })
        #expect(BackupCodec(id: "calendar-backup") == nil)
    }
}
