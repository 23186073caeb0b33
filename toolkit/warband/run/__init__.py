"""Running rules: dice, worlds, the interpreter, generated code, decisions and odds."""
