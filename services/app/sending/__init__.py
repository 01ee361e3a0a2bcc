"""Sending within Telegram's limits: a permit per message shared by every replica (answers
ahead of alerts), a 429's hold, people who blocked the bot, and the outbox of alerts."""
