-- The key two names are one name by (`names::key` in the server): the name in Unicode's
-- compatibility form with every letter lowercased, in any script. The hall computes it,
-- the same for SQLite and PostgreSQL, instead of `lower()`, whose folding depends on the
-- database's locale; it fills the key of the accounts made before this migration when it
-- opens the database.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_name_key ON users (name_key);
DROP INDEX users_name;
