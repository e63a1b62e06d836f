"""Game review (issue 18) in the server: the review's job in the engine pool (`job`), its record
and JSON (`record`), where a review comes from (`sources`), the queue that runs one review at a
time (`runner`), the puzzle answers (`puzzle`) and the service over them (`service`). The
judging itself is chesscore.review's; its HTTP routes (`http`), socket events (`events`) and request
parsing (`requests`) are here too."""
