"""The floor under every feature: what all of them share and none of them owns.

Errors every refusal is made of (`errors`), the settings (`config`), how headers and results
are shown (`display`), players' names and their look-alike skeletons (`names`). Nothing here
imports a feature, the edge or storage.
"""
