import AlmanacCLI
import AlmanacCore
import Foundation

// A thin entry point: everything testable lives in AlmanacCLI.
let environment = ProcessInfo.processInfo.environment
let session = Session(
    environment: environment,
    language: Language.fromEnvironment(environment),
    standardOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
    standardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) },
    binaryOutput: { bytes in FileHandle.standardOutput.write(Data(bytes)) })
exit(Almanac.run(Array(CommandLine.arguments.dropFirst()), session: session))
