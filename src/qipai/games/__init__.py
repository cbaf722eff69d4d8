"""The games: one folder each (rules, their words (explain), state, observation, settlement, record, bots,
glossary, titles), each behind the interface of :mod:`qipai.core.game` and listed in :mod:`qipai.core.registry`."""
