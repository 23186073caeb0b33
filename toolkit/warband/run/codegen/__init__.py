"""Rules translated to Python source for fast sampling, and the runtime it calls."""
