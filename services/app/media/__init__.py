"""Photos and voice messages as questions, and what a label or a wine list means for the shop."""
