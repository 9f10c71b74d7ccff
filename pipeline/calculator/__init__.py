"""Calculators for players and arbiters: one player's games (``calc``), the expectancy table
(``table``), performance ratings, and the sequential (non-FIDE) mode. All of them go through the
pipeline's engine, grouper, rounding and tables; none has its own copy of a rule.
"""

# Modules are imported by name (pipeline.calculator.calc, ...): importing them here would make
# jobs.rate.stages (which uses .sequential) and .calc (which uses jobs.rate.stages) circular.
