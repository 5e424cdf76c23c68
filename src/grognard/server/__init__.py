"""``grognard serve``: the games in a web browser, with the fog of war kept on the server."""
