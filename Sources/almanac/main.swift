import AlmanacCLI

// A thin entry point: everything testable lives in AlmanacCLI.
Almanac.runProcess()
