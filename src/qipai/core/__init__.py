"""What every game shares: the game interface (:mod:`.game`), declared rule options (:mod:`.options`) and the
seeded random source rules may use (:mod:`.rng`).  Pure Python, standard library only: no IO."""
