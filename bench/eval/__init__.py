"""`sommelier eval`: a golden set of multi-turn dialogs checked on the offline and agent paths."""
