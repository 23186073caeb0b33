"""Games: the board, scenarios, the engine, look-ahead, logs and simulation."""
