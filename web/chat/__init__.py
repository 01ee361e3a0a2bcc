"""The web chat and its embeddable widget (issue 29)."""
