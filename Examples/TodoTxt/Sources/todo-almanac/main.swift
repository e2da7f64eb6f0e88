import AlmanacCLI
import TodoTxtCodec

// Everything `almanac` does (the built-in formats, plugins on PATH), plus todo.txt.
Almanac.runProcess(adding: [TodoTxtCodec()])
