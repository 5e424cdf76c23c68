"""The ``grognard`` command: thin commands over the game protocol."""
