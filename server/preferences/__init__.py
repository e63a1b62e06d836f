"""A player's preferences: the board's colours, the theme, and how the game pages behave.

Kept by the account when signed in (its own table), else by the browser (a cookie the server
reads, so every page is rendered with the right look from its first byte, and localStorage).
"""
