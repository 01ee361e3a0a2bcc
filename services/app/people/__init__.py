"""The people the bot talks to: Telegram users and the web chat's anonymous visitors."""
