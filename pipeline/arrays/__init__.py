"""Array helpers with their proofs: Arrow text columns, stable orders, exact sums."""
