-- The key two names are one name by (`names::key` in the server) now also reduces a name to
-- what it looks like (Unicode's confusable skeleton, UTS #39), so that no new name passes
-- for a taken one. Every key is computed again, by the hall, when it opens the database:
-- of two older accounts whose names look alike the older keeps the key, and the other logs
-- in by its exact name.
UPDATE users SET name_key = NULL;
