"""Catalog picks without a turn of the person's own words: the welcome, inline queries and
group chats."""
