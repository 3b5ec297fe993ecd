"""Host-side tools (CPython) for the open chess board."""
