"""Event files (games, individual, TRF, crosstables, grids) into games frames."""
