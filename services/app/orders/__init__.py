"""The shop's orders: read from exports and the HTTP endpoint, attributed to the sommelier."""
