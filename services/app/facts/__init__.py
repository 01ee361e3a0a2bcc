"""The request facts recorded beside every answer, and «Купить» through the tracked redirect."""
