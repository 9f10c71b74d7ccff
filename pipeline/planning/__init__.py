"""The plan of a run, decided once before anything is rated: the rating period (from the options
and the events' own dates) and, by it, the rule set in force and the unit of the expected
scores. It reads the stage values of :mod:`pipeline.model` and the rules as data
(:mod:`pipeline.rules`), which import nothing above them."""
