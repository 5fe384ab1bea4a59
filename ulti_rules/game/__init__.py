"""The Game: a ruleset compiled once into the tables engine and scoring share."""

from .game import Game
from .seating import BadDeal, Seating

__all__ = ["BadDeal", "Game", "Seating"]
