"""Keys and look-ups: ids found in a list, the games' keys encoded once."""
