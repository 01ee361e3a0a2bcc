"""A turn: the person's words admitted, answered by the agent and stored whole with its log line;
and the event encoding the HTTP adapters share."""
