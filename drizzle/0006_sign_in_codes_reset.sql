-- Sign-in codes become one row per browser (keyed by the hash of its challenge cookie, see
-- docs/account.md "Sign-in codes"). Rows of the old shape (one per address) have no challenge and
-- cannot be kept: they live at most 10 minutes, and whoever was signing in asks for a new code.
DELETE FROM sign_in_codes;
