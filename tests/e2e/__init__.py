"""End-to-end tests of the fake Discord harness (this package puts tests/ on sys.path)."""
