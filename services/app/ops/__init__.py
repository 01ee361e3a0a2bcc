"""Running the service: health, rate limits, metrics, the update ledger, backups and the daily
housekeeping."""
