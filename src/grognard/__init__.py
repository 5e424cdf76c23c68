"""grognard: four classic computer wargames on one faithful engine."""

__version__ = "0.1.0"
