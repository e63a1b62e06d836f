"""Optional accounts (issue 27): who a signed-in player is, for every transport.

`identity` (the `Account` value and `current_account`, the interface the rest of the server
uses), `usernames` (what a name may be, and its look-alike key), `passwords` (Argon2id, the
common-password list), `codes` (recovery codes), `sessions` (the session cookie), `limits`
(sign-in and sign-up limits per address and account) and `service` (sign-up, sign-in and the
rest, over the store). Anonymous play needs none of it.
"""
