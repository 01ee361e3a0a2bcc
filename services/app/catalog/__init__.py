"""The catalog as the shop's admin changes it: seeding, embedding, importing a feed or a file
(`importer/`), the scheduled sync."""
