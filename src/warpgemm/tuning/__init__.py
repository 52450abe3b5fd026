"""Kernel parameter tuning: the table the launch path reads (`table`) and the offline search that fills it (`search`)."""
