"""Column helpers shared by the stages: Arrow interop without copies (``arrow``) and hash look-ups
(``lookup``)."""
