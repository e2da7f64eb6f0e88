import AlmanacCore
import Foundation
import TodoTxtCodec

// The same codec as a plugin executable: `almanac` runs it with --describe, decode or encode.
exit(CodecPlugin.main(TodoTxtCodec(), messages: TodoTxtMessages.table))
