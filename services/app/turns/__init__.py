"""A turn: the person's words admitted, answered by the agent and stored whole; the answer log
and the event encoding the HTTP adapters share."""
