"""«Сообщить, когда появится» and price drops of favourites: subscriptions, the pass that
turns a catalog change into alerts (queued in the outbox), /alerts."""
