"""Repository-level test generation (Copilot harness test_gen cases in their repositories)."""
